// The move's rate in bench:store's PostgreSQL run (`npm run bench:store -- --store postgres`):
// a copy of the bench's 7-day DuckDB store (closed, as a stopped appliance leaves it) copied by the real
// command, `hopwatch migrate-store` (dist/server/cli/main.js, a child process), into a
// throwaway PostgreSQL 15 run as durable as a server (fsync on). Its own figure is the source's
// MB in use per second of the copy, packing included; the verification pass after it is not
// in the rate (its time is printed beside).
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

export async function migrateSide({ dist, dir, log }) {
  // The bench's own tables (the raw appender's comparison tables) are no appliance's: dropped
  // from the copy, so the MB in use are the appliance's tables only.
  const { Store } = await import(dist('server/store/db.js'));
  const copy = await Store.open(dir);
  for (const { t } of await copy.all(`SELECT table_name AS t FROM duckdb_tables() WHERE table_name LIKE 'samples_raw%' OR table_name = 'warmup'`)) await copy.run(`DROP TABLE ${t}`);
  await copy.close();
  const { startPostgres } = await import(new URL('../test/support/postgres.ts', import.meta.url).href);
  const server = await startPostgres({
    settings: { fsync: 'on', full_page_writes: 'on', synchronous_commit: 'on', shared_buffers: '256MB', max_wal_size: '4GB', checkpoint_timeout: '15min' },
  });
  try {
    log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    const cli = fileURLToPath(new URL('../dist/server/cli/main.js', import.meta.url));
    const t0 = performance.now();
    const { code, stdout, stderr } = await new Promise((resolve) => {
      const child = spawn(process.execPath, [cli, 'migrate-store', '--to', server.url, '--from', dir], { env: { ...process.env, HOPWATCH_MIGRATE_PROGRESS_MS: '15000' } });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => {
        err += d;
        for (const line of String(d).split('\n')) if (line.trim()) log(line.trim());
      });
      child.on('close', (c) => resolve({ code: c, stdout: out, stderr: err }));
    });
    const total = (performance.now() - t0) / 1000;
    for (const line of stdout.split('\n')) if (line.trim()) log(line);
    if (code !== 0) throw new Error(`migrate-store exited with ${code}: ${stderr.trim().split('\n').at(-1)}`);
    const m = /copied ([\d.]+) MB of [\d.]+ MB in .*?: ([\d.]+) MB\/s/.exec(stdout);
    if (!m) throw new Error('migrate-store printed no rate');
    log(`migrate-store: ${m[2]} MB/s (${m[1]} MB in use of the DuckDB store; ${total.toFixed(1)} s with the start, checks and the verification)`);
    return { mbPerSecond: Number(m[2]) };
  } finally {
    server.stop();
  }
}
