// Runs every vitest suite and closes with one plain line "N passed, N failed, N skipped",
// the form CI reads in any language. On this 2-core machine (docs/testing.md, the phases and
// their times): the unit, API, hub and network suites in parallel, and beside them the suites
// that mostly wait on the wall clock, then the replicas' suites; then two lanes side by side,
// each one file at a time: the browser suites (each its own appliance, Chromium and ports) and
// the container suites (podman: image builds, compose projects), which share nothing with them;
// then the suites that measure CPU (a browser's main-thread share) alone, so what they print does
// not depend on what else runs; last the PostgreSQL matrix.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdirSync, readFileSync } from 'node:fs';
// Stops here unless this is the project's Node (docs/decisions.md, "Node runtime"): vitest and
// everything the suites start run on process.execPath.
import '../scripts/check-node.mjs';

mkdirSync('test-results', { recursive: true });
// The browser lane and the container lane: one file at a time each, the two lanes at once.
const browserSuites = ['test/e2e', 'test/security/browser'];
const containerSuites = ['test/container'];
const heavy = [...browserSuites, ...containerSuites];
// Alone after the lanes: they measure a browser's main-thread busy share and frames (printed in
// docs/benchmarks.md), which a container build beside them would change. The other two
// perf suites here run only as benchmarks (HOPWATCH_BENCH, bench:pathview) and skip in CI.
const aloneSuites = ['test/e2e/target-window-perf.test.ts', 'test/e2e/summary-sessions-perf.test.ts', 'test/e2e/path-view-bench.test.ts'];
// Replicas on PostgreSQL and Redis (issue 43), on the PostgreSQL store: beside the parallel phase, after
// the waiting suites below (they mostly wait on replicas starting, a kill, a failover).
const clusterSuites = 'test/cluster';
// Beside the parallel phase, one file at a time: suites that mostly wait on the wall clock (a
// server away two minutes, a mail server down for 60 s, the Path view's minutes, the product's
// own heartbeat, a minute of rounds), not on the CPU. In the parallel phase each held one of its
// two places while the 2 cores stood 37% idle (vmstat during CI run ci58, 2026-11-30); beside it
// they use that (docs/testing.md "Back under 45 minutes"). The engine's cadence suite stays in the
// parallel phase: it counts rounds against mtr's. Two of these at a time, or the arm64 agent's
// suite among them, made the parallel phase's own suites slower by as much as they saved.
const waitingSuites = [
  'test/netns/path-view.test.ts',
  'test/agents/agent-outage.test.ts',
  'test/insights/netns.test.ts',
  'test/alerts/delivery.test.ts',
  'test/agents/agent-heartbeat.test.ts',
];
const extra = process.argv.slice(2);

// The failed tests by file, name and the first lines of their message: CI keeps only the end of
// the output, so the closing lines must say what failed, not just how many.
function failuresOf(report) {
  const cwd = process.cwd() + '/';
  const out = [];
  for (const file of report.testResults ?? []) {
    const where = String(file.name ?? '').replace(cwd, '');
    const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    if (failed.length === 0 && file.status === 'failed') out.push(`${where}: ${firstLines(file.message)}`);
    for (const t of failed) out.push(`${where} > ${t.fullName}: ${firstLines((t.failureMessages ?? []).join('\n'))}`);
  }
  return out;
}

function firstLines(text) {
  return String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n').slice(0, 3).join(' | ').slice(0, 400);
}

/** Runs vitest once; `prefix`: each output line is tagged with the lane's name (two lanes at once). */
async function phase(name, args, env = {}, prefix = false) {
  const report = `test-results/vitest-${name}.json`;
  const child = spawn(
    process.execPath,
    ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args, ...extra],
    { stdio: prefix ? ['inherit', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...env } },
  );
  if (prefix) {
    for (const [from, to] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) {
      createInterface({ input: from, crlfDelay: Infinity }).on('line', (line) => to.write(`[${name}] ${line}\n`));
    }
  }
  const run = await new Promise((resolve) => {
    child.on('error', (err) => {
      console.error(`${name}: ${err.message}`);
      resolve({ status: 1 });
    });
    child.on('close', (code) => resolve({ status: code }));
  });
  let counts = { passed: 0, failed: 0, skipped: 0, failures: [] };
  try {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    counts = {
      passed: r.numPassedTests,
      failed: r.numFailedTests,
      skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
      failures: failuresOf(r),
    };
    // A suite that failed to load counts as a failure even with no test in it.
    if (run.status !== 0 && counts.failed === 0) counts.failed = 1;
  } catch (err) {
    console.error(`no vitest report for ${name}: ${err.message}`);
    counts.failed = 1;
    counts.failures = [`${name} phase: no vitest report`];
  }
  return { status: run.status ?? 1, ...counts };
}

// The PostgreSQL matrix (issue 42; docs/store.md "The test matrix"): the suites that open a
// store or an appliance and reach SQL of their own run again with HOPWATCH_TEST_STORE=postgres:
// the repositories' suites, the store's and the ingest's, the outbox, and the authorization matrix, which calls
// every route and hub method of every area as every kind of caller (one API suite touching every
// area). The rest is backend-agnostic: pure logic, kernels, the engine, the web console, or
// suites whose store work goes through the same repositories these already cover. About 3.5
// minutes on the 2-core machine (docs/store.md "The test matrix").
const PostgresSuites = [
  'server/account/authenticate.test.ts',
  'server/settings/public-url.test.ts',
  'server/kvp/trace-history.test.ts',
  'server/summaries/events.test.ts',
  'server/insights/edition.test.ts',
  'server/alerts/outbox.integration.test.ts',
  'server/data/outages.test.ts',
  'server/store/grouped-writes.integration.test.ts',
  'server/settings/version.integration.test.ts',
  'server/store/list-param.test.ts',
  'server/store/retention.integration.test.ts',
  'server/store/sample-tables.integration.test.ts',
  'server/ingest/recent.integration.test.ts',
  'server/ingest/group-commit.integration.test.ts',
  'server/ingest/memory-cap.integration.test.ts',
  'server/ingest/hosts.integration.test.ts',
  'server/ingest/finish-during-flush.integration.test.ts',
  'server/ingest/rollup-groups.integration.test.ts',
  'server/ingest/sample-tallies.integration.test.ts',
  'server/rollups/append.test.ts',
  'server/data/store-read.integration.test.ts',
  'server/data/packet-type.integration.test.ts',
  'test/api/datafiles.test.ts',
  // The bulk import against the live pipeline (about 25 s on PostgreSQL). Its sibling
  // packed-round-trip.integration.test.ts is dialect-neutral too but takes over 2 minutes on
  // PostgreSQL (a day of raw samples read back again and again): run by hand with
  // HOPWATCH_TEST_STORE=postgres, not in this phase.
  'server/datafiles/bulk-import.integration.test.ts',
  'test/security/authorization-matrix.test.ts',
  // Issue 43: the leader lease on PostgreSQL (skips without HOPWATCH_TEST_STORE=postgres); the
  // replicas' suites (test/cluster) run beside the parallel phase, on PostgreSQL too.
  'server/cluster/leadership.integration.test.ts',
  // Two appliances on one database (issue 42 item 1): keys, ids and the first start shared.
  'test/store/replicas.test.ts',
  'server/store/server-keys.integration.test.ts',
];
// Not listed: suites that start their own throwaway PostgreSQL whatever HOPWATCH_TEST_STORE says
// (test/store/migrate-store.test.ts, DuckDB into PostgreSQL, about 35 s; migrate-store-running.test.ts,
// a running appliance copied and caught up, about 25 s; the layout's own suites):
// the parallel phase runs them once, and here they would do the same work again.

const without = (files) => files.flatMap((f) => ['--exclude', f]);
// The container lane builds the appliance image once: compose-up first (podman-compose build, as
// docs/deploy.md says), which keeps its image as the tree's image, then the suites that run it;
// then, to even the two lanes out, browser suites that mostly wait on live rounds (a minute or
// more of a trace at its interval, an agent away, an agent joining), one at a time beside the
// browser lane's. The image's build took 658 s of the lane in ci59 and 357 s since the arm64
// Node's brotli went from quality 10 to 8 (lanes measured 2026-11-30 17:44: browsers 1,123 s,
// the container lane 1,012): two more suites here (about 50 s) even them out again.
const composeBuild = 'test/container/compose-up.test.ts';
const waitingBrowserSuites = ['test/e2e/lan-graphs.test.ts', 'test/e2e/target-outage-gaps.test.ts', 'test/e2e/agents.test.ts', 'test/e2e/silent-hop-loss.test.ts'];
/** Phases one after another in one lane, counted as one. */
async function lane(...steps) {
  const parts = [];
  for (const step of steps) parts.push(await step());
  return {
    status: parts.find((p) => p.status !== 0)?.status ?? 0,
    ...Object.fromEntries(['passed', 'failed', 'skipped'].map((k) => [k, parts.reduce((n, p) => n + p[k], 0)])),
    failures: parts.flatMap((p) => p.failures),
  };
}
const containerLane = () =>
  lane(
    () => phase('containers-build', [composeBuild], {}, true),
    () => phase('containers', [...containerSuites, ...without([composeBuild]), '--no-file-parallelism'], {}, true),
    () => phase('browsers-waiting', [...waitingBrowserSuites, '--no-file-parallelism'], {}, true),
  );
const waitingLane = () =>
  lane(
    () => phase('waiting', [...waitingSuites, '--no-file-parallelism'], {}, true),
    () => phase('cluster', [clusterSuites], { HOPWATCH_TEST_STORE: 'postgres' }, true),
  );
// HOPWATCH_TEST_PHASES=lanes,alone (a comma list of parallel, lanes, alone, postgres): only those
// phases, to rerun a part by hand (docs/testing.md); CI runs all four.
const chosen = new Set((process.env.HOPWATCH_TEST_PHASES ?? 'parallel,lanes,alone,postgres').split(',').map((p) => p.trim()));
const phases = [];
if (chosen.has('parallel')) {
  phases.push(
    ...(await Promise.all([
      phase('parallel', [...[...heavy, clusterSuites].flatMap((d) => ['--exclude', `${d}/**`]), ...without(waitingSuites)]),
      waitingLane(),
    ])),
  );
}
if (chosen.has('lanes')) {
  phases.push(
    ...(await Promise.all([
      phase('browsers', [...browserSuites, ...without([...aloneSuites, ...waitingBrowserSuites]), '--no-file-parallelism'], {}, true),
      containerLane(),
    ])),
  );
}
if (chosen.has('alone')) phases.push(await phase('alone', [...aloneSuites, '--no-file-parallelism']));
if (chosen.has('postgres')) phases.push(await phase('postgres', PostgresSuites, { HOPWATCH_TEST_STORE: 'postgres' }));
const total = { passed: 0, failed: 0, skipped: 0 };
for (const p of phases) for (const k of Object.keys(total)) total[k] += p[k];
for (const f of phases.flatMap((p) => p.failures)) console.log(`FAILED ${f}`);
console.log(`\nvitest: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(phases.find((p) => p.status !== 0)?.status ?? 0);
