// Entry point: configuration, store, root user, HTTP; clean shutdown on SIGTERM/SIGINT.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { ConfigError, loadConfig } from './config.js';
import { DuckStore, Store } from './store/db.js';
import { answerSnapshotRequests } from './store/migrate-store/snapshot.js';
import { DatabaseUnreachable, describeUrl } from './store/postgres/connect.js';
import { buildApp } from './app.js';
import { ensureRootUser } from './account/root-user.js';
import { ensureStaffUser } from './accounts/staff-user.js';
import { secureDataDir, ServerUmask } from './store/data-dir.js';
import { endAppends } from './store/append-columns.js';

const here = dirname(fileURLToPath(import.meta.url));
// dist/server/main.js -> repo root two levels up.
const root = resolve(here, '../..');
const version = (JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { version: string }).version;
const ShutdownLimitMs = 4500;

async function main(): Promise<void> {
  // Before anything is created: the database, its WAL (DuckDB makes them), key files, the
  // alert outbox and exports are the owner's only, whatever umask started the server.
  process.umask(ServerUmask);
  let config;
  try {
    config = loadConfig(process.env, resolve(root, 'dist/web'));
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`hopwatch: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }

  secureDataDir(config.dataDir, (line) => process.stdout.write(`${line}\n`));
  const say = (line: string) => process.stdout.write(`${line}\n`);
  let store;
  try {
    // HOPWATCH_DATABASE_URL: PostgreSQL (waits for it, then migrates under an advisory lock); else the DuckDB file.
    store = await Store.open(config.dataDir, {
      databaseUrl: config.databaseUrl,
      migrations: { log: say },
      log: say,
      reads: { waitMs: config.readWaitMs, queue: config.readQueue },
      memoryMb: config.storeMemoryMb,
    });
  } catch (err) {
    if (err instanceof DatabaseUnreachable) {
      process.stderr.write(`hopwatch: ${err.message}\n`);
      process.exit(3);
    }
    throw err;
  }
  // Replicas starting together on one PostgreSQL database make the first start's users once
  // (each looks, then creates): one at a time, the second finds them made.
  await store.alone('first start', async () => {
    await ensureRootUser(store, config, (line) => process.stdout.write(`${line}\n`));
    await ensureStaffUser(store, config, (line) => process.stdout.write(`${line}\n`));
  });

  // An embedded store answers migrate-store's requests for a snapshot while it runs (docs/deploy.md).
  const stopSnapshots = store instanceof DuckStore ? answerSnapshotRequests(store, config.dataDir, say) : () => undefined;

  let shuttingDown = false;
  const app = await buildApp({ config, store, version, isShuttingDown: () => shuttingDown });

  const shutdown = async (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      // An append under way would hold the exit forever (append-columns.ts endAppends).
      setTimeout(() => process.exit(1), 1000);
      void endAppends().finally(() => process.exit(1));
    }, ShutdownLimitMs);
    force.unref();
    try {
      stopSnapshots();
      await app.close();
      await store.close();
      app.log.info('stopped cleanly');
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  process.stdout.write(`Hopwatch ${version} is listening on ${config.tls ? 'https' : 'http'}://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port} (data in ${config.databaseUrl ? `PostgreSQL at ${describeUrl(config.databaseUrl)}` : config.dataDir})\n`);
}

main().catch((err) => {
  process.stderr.write(`hopwatch: failed to start: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
