// The server's keys (issue 42 item 1, docs/store.md "What lives where"): the AES-256-GCM keys
// the stored passwords and setup keys are sealed with (server/liveshare/secrets.ts). DuckDB keeps
// each in a file of the data directory, made on first use (a copied database file alone does
// not give the sealed passwords away). On PostgreSQL every replica must open what another sealed,
// so they are rows of `server_keys` (migration 27), read once at start: the first replica to
// start makes each (INSERT ... ON CONFLICT DO NOTHING, then every replica reads the row that won,
// so two starting together agree). A data directory that already holds a key file (an appliance
// moved from DuckDB with migrate-store, its data directory kept) gives its key instead of a new
// random one: what it sealed still opens.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Queryable } from './db.js';

/** Every key the server seals with, by its file name in a DuckDB data directory. */
export const ServerKeyNames = [
  // LiveShare link passwords, Sidekick's LiveShare links, the SMTP password.
  'liveshare.key',
  // Agents' setup keys kept for showing Auto Setup links again (server/agents/setup-keys.ts).
  'agent-setup.key',
  // Remote-server passwords of configurations (server/remote-server/settings.ts).
  'remote-server.key',
] as const;
export type ServerKeyName = (typeof ServerKeyNames)[number];

/** A new key as a key file holds it: 32 random bytes, base64. */
export const newKeyText = (): string => randomBytes(32).toString('base64');

/** The key a data directory's file holds, if there is a readable one. */
function keyFileText(dataDir: string, name: ServerKeyName): string | undefined {
  const file = join(dataDir, name);
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8').trim();
  return Buffer.from(text, 'base64').length === 32 ? text : undefined;
}

/**
 * PostgreSQL: every server key, made where missing (the data directory's file if it has one,
 * else random) and read back as stored. Race-free between replicas: the first insert wins and
 * all read it.
 */
export async function loadServerKeys(q: Queryable, dataDir: string): Promise<ReadonlyMap<ServerKeyName, string>> {
  for (const name of ServerKeyNames) {
    await q.run('INSERT INTO server_keys (name, key, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING', [name, keyFileText(dataDir, name) ?? newKeyText(), Date.now()]);
  }
  const rows = await q.all<{ name: ServerKeyName; key: string }>('SELECT name, key FROM server_keys');
  return new Map(rows.map((r) => [r.name, r.key]));
}
