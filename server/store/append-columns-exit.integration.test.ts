// A process that must exit (the server's shutdown limit, server/main.ts) while an append runs
// must end. DuckDB's INSERT asks the main thread for each slice of rows (append-columns.ts);
// once the process exits nothing answers, and the statement's thread spun on forever, keeping
// the process alive at 100% of a core (found with bench:agents, 2026-11-29). Uses dist/ (npm
// run build:server first): the child process runs the built module.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const appendModule = fileURLToPath(new URL('../../dist/server/store/append-columns.js', import.meta.url));

/** A child that appends 40 M rows and, after 50 slices, runs `exit` (JS text). */
const child = (exit: string) => `
import { DuckDBInstance, INTEGER, BIGINT } from '@duckdb/node-api';
const { appendColumns, endAppends } = await import(${JSON.stringify(appendModule)});
const conn = await (await DuckDBInstance.create(':memory:')).connect();
await conn.run('CREATE TABLE s (a INTEGER, b BIGINT)');
const n = 40_000_000;
let slices = 0;
const append = appendColumns(conn, 's', n, [{ type: INTEGER, values: new Int32Array(n) }, { type: BIGINT, values: new Float64Array(n) }], () => {
  if (++slices === 50) setImmediate(() => { ${exit} });
});
append.then(() => console.log('appended'), (err) => console.log('append failed: ' + err.message));
`;

const run = (exit: string) =>
  spawnSync(process.execPath, ['--input-type=module', '-e', child(exit)], { cwd: fileURLToPath(new URL('../..', import.meta.url)), timeout: 20_000, encoding: 'utf8' });

describe('appendColumns on DuckDB, at exit', () => {
  it('ends the appends under way when asked (endAppends), so that the process can exit with its code', () => {
    const r = run('void endAppends().then(() => setImmediate(() => process.exit(7)));');
    expect(r.signal, r.stderr).toBeNull(); // not killed by the timeout: it ended by itself
    expect(r.status, r.stderr).toBe(7);
    expect(r.stdout).toContain('append failed'); // interrupted, not committed
  }, 40_000);

  it('ends a process that exits during an append without asking first, instead of hanging', () => {
    const r = run('process.exit(7);');
    expect(r.signal, r.stderr).toBe('SIGKILL'); // the timeout sends SIGTERM: this one ended itself
    expect(r.stderr).toContain('exit during 1 append(s)');
  }, 40_000);
});
