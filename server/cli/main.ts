#!/usr/bin/env node
// The `hopwatch` command (package.json "bin"; the image's entry point runs it for
// `migrate-store`): operator tasks beside the server. One task so far:
//   hopwatch migrate-store --to postgres://user:password@host:5432/db [--from DATA_DIR]
// (docs/deploy.md "Moving an appliance onto PostgreSQL"). Failures print "{what} failed: {why}"
// on stderr, never with the URL's password, and exit with 1 (2 for a wrong command line).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { failureText } from '../store/migrate-store/errors.js';
import { migrateStore } from './migrate-store.js';

const Usage = `usage: hopwatch migrate-store --to postgres://user:password@host:5432/database [--from DATA_DIR]
  Copies a stopped embedded appliance (the DuckDB store in DATA_DIR; default HOPWATCH_DATA_DIR,
  else ./data) into an empty PostgreSQL 15+ database, then verifies it. Run it again after an
  interruption: it goes on where it stopped.`;

const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== 'migrate-store') {
    process.stderr.write(`${command && !['help', '--help', '-h'].includes(command) ? `hopwatch: no command "${command}"\n` : ''}${Usage}\n`);
    return command && !['help', '--help', '-h'].includes(command) ? 2 : 0;
  }
  let to: string | undefined;
  let from: string | undefined;
  try {
    const { values } = parseArgs({ args: rest, options: { to: { type: 'string' }, from: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true });
    if (values.help) {
      process.stdout.write(`${Usage}\n`);
      return 0;
    }
    to = values.to;
    from = values.from;
  } catch (err) {
    process.stderr.write(`migrate-store failed: ${(err as Error).message}\n${Usage}\n`);
    return 2;
  }
  if (!to || !/^postgres(ql)?:\/\//.test(to)) {
    process.stderr.write(`migrate-store failed: --to needs the PostgreSQL database's URL (postgres://user:password@host:5432/database)\n${Usage}\n`);
    return 2;
  }
  try {
    await migrateStore({
      to,
      from: resolve(from ?? (process.env.HOPWATCH_DATA_DIR || './data')),
      progressEveryMs: num(process.env.HOPWATCH_MIGRATE_PROGRESS_MS),
      connectTimeoutMs: num(process.env.HOPWATCH_MIGRATE_CONNECT_TIMEOUT_MS),
      writers: num(process.env.HOPWATCH_MIGRATE_WRITERS),
      chunkDelayMs: num(process.env.HOPWATCH_MIGRATE_CHUNK_DELAY_MS),
    });
    return 0;
  } catch (err) {
    process.stderr.write(`${failureText(err, to)}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
