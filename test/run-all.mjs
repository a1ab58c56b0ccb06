// Runs every vitest suite and closes with one plain line "N passed, N failed, N skipped",
// the form CI reads in any language. Exit code is vitest's.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';

mkdirSync('test-results', { recursive: true });
const report = 'test-results/vitest.json';
const run = spawnSync(
  process.execPath,
  ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
try {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  console.log(`\nvitest: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
} catch (err) {
  console.error(`no vitest report: ${err.message}`);
}
process.exit(run.status ?? 1);
