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

function phase(name, args) {
  const report = `test-results/vitest-${name}.json`;
  const run = spawnSync(
    process.execPath,
    ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args, ...extra],
    { stdio: 'inherit' },
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

const a = phase('parallel', heavy.flatMap((d) => ['--exclude', `${d}/**`]));
const b = phase('serial', [...heavy, '--no-file-parallelism']);
const total = { passed: a.passed + b.passed, failed: a.failed + b.failed, skipped: a.skipped + b.skipped };
for (const f of [...a.failures, ...b.failures]) console.log(`FAILED ${f}`);
console.log(`\nvitest: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(a.status || b.status);
