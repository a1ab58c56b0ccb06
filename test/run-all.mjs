// Runs every vitest suite and closes with one plain line "N passed, N failed, N skipped",
// the form CI reads in any language. Two phases on this 2-core machine: the unit, API, hub
// and network suites in parallel, then the heavy ones (browser, container image build) one
// file at a time, so their time-outs do not depend on what else happens to run.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
// Stops here unless this is the project's Node (docs/decisions.md, "Node runtime"): vitest and
// everything the suites start run on process.execPath.
import '../scripts/check-node.mjs';

mkdirSync('test-results', { recursive: true });
const heavy = ['test/e2e', 'test/security/browser', 'test/container'];
// Replicas on PostgreSQL and Redis (issue 43): only in the postgres phase below.
const clusterSuites = 'test/cluster';
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

function phase(name, args, env = {}) {
  const report = `test-results/vitest-${name}.json`;
  const run = spawnSync(
    process.execPath,
    ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args, ...extra],
    { stdio: 'inherit', env: { ...process.env, ...env } },
  );
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
  // Issue 43: the leader lease on PostgreSQL (skips without HOPWATCH_TEST_STORE=postgres), and the replicas' suites
  // (test/cluster/cluster-proof.test.ts: the whole proof behind HAProxy, root only, about 40 to 75 s).
  'server/cluster/leadership.integration.test.ts',
  // Two appliances on one database (issue 42 item 1): keys, ids and the first start shared.
  'test/store/replicas.test.ts',
  'server/store/server-keys.integration.test.ts',
  clusterSuites,
];
// Not listed: suites that start their own throwaway PostgreSQL whatever HOPWATCH_TEST_STORE says
// (test/store/migrate-store.test.ts, DuckDB into PostgreSQL, about 35 s; migrate-store-running.test.ts,
// a running appliance copied and caught up, about 25 s; the layout's own suites):
// the parallel phase runs them once, and here they would do the same work again.

const a = phase('parallel', [...heavy, clusterSuites].flatMap((d) => ['--exclude', `${d}/**`]));
const b = phase('serial', [...heavy, '--no-file-parallelism']);
const c = phase('postgres', PostgresSuites, { HOPWATCH_TEST_STORE: 'postgres' });
const phases = [a, b, c];
const total = { passed: 0, failed: 0, skipped: 0 };
for (const p of phases) for (const k of Object.keys(total)) total[k] += p[k];
for (const f of phases.flatMap((p) => p.failures)) console.log(`FAILED ${f}`);
console.log(`\nvitest: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(a.status || b.status || c.status);
