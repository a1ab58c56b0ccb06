// SQL of the settings editor: an account's configurations (table configurations) and its
// General settings and settings version (table account_settings, migration 8).
import type { Queryable } from '../store/db.js';
import { listParam, safeIds } from '../store/id-list.js';

export interface ConfigurationRecord {
  id: number;
  name: string;
  description: string;
  warn: number;
  bad: number;
  scale: number;
  /** configurations.engine_json parsed: engine option names (packetType, tcpPort...). */
  engine: Record<string, unknown>;
}

interface Row {
  id: number;
  name: string;
  description: string;
  warn: number;
  bad: number;
  scale: number;
  engine_json: string;
}

function parseJson(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text || '{}') as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const toRecord = (r: Row): ConfigurationRecord => ({
  id: Number(r.id),
  name: r.name,
  description: r.description,
  warn: Number(r.warn),
  bad: Number(r.bad),
  scale: Number(r.scale),
  engine: parseJson(r.engine_json),
});

/** The account's configurations in the tree's order. */
export async function configurationsOf(q: Queryable, accountId: number): Promise<ConfigurationRecord[]> {
  const rows = await q.all<Row>(
    'SELECT id, name, description, warn, bad, scale, engine_json FROM configurations WHERE account_id = $1 ORDER BY position, id',
    [accountId],
  );
  return rows.map(toRecord);
}

/** What rows show of a configuration: its thresholds, graph scale and name. */
export interface ConfigurationDisplay {
  warn: number;
  bad: number;
  scale: number;
  name: string;
}

/** The display values of the configurations of `ids`, in one statement (absent ones are left out). */
export async function configurationDisplays(q: Queryable, ids: Iterable<number>): Promise<Map<number, ConfigurationDisplay>> {
  const safe = safeIds(new Set(ids));
  if (!safe.length) return new Map();
  const rows = await q.all<{ id: number } & ConfigurationDisplay>('SELECT id, warn, bad, scale, name FROM configurations WHERE id IN (SELECT unnest($1::INTEGER[]))', [listParam(safe)]);
  return new Map(rows.map((r) => [Number(r.id), { warn: r.warn, bad: r.bad, scale: r.scale, name: r.name }]));
}

export async function insertConfiguration(q: Queryable, accountId: number, c: Omit<ConfigurationRecord, 'id'>): Promise<number> {
  const row = await q.one<{ id: number }>(
    `INSERT INTO configurations (account_id, name, description, warn, bad, scale, engine_json, position)
     VALUES ($1, $2, $3, $4, $5, $6, $7, (SELECT coalesce(max(position), 0) + 1 FROM configurations WHERE account_id = $1)) RETURNING id`,
    [accountId, c.name, c.description, c.warn, c.bad, c.scale, JSON.stringify(c.engine)],
  );
  return Number(row!.id);
}

export async function updateConfiguration(q: Queryable, c: ConfigurationRecord): Promise<void> {
  await q.run('UPDATE configurations SET name = $2, description = $3, warn = $4, bad = $5, scale = $6, engine_json = $7 WHERE id = $1', [
    c.id, c.name, c.description, c.warn, c.bad, c.scale, JSON.stringify(c.engine),
  ]);
}

export async function setPosition(q: Queryable, id: number, position: number): Promise<void> {
  await q.run('UPDATE configurations SET position = $2 WHERE id = $1', [id, position]);
}

export async function deleteConfiguration(q: Queryable, id: number): Promise<void> {
  await q.run('DELETE FROM configurations WHERE id = $1', [id]);
}

/** Moves every session of the account from one configuration to another. */
export async function moveSessions(q: Queryable, accountId: number, from: number, to: number): Promise<void> {
  await q.run('UPDATE sessions SET configuration_id = $3 WHERE account_id = $1 AND configuration_id = $2', [accountId, from, to]);
}

export interface AccountSettingsRow {
  version: number;
  general: Record<string, unknown>;
}

export async function accountSettings(q: Queryable, accountId: number): Promise<AccountSettingsRow> {
  const row = await q.one<{ version: number; general_json: string }>('SELECT version, general_json FROM account_settings WHERE account_id = $1', [accountId]);
  return row ? { version: Number(row.version), general: parseJson(row.general_json) } : { version: 1, general: {} };
}

/**
 * Moves the account's settings from `expected` to the next version with this General; false
 * when another save got there first (the caller's version is stale).
 */
export async function bumpVersion(q: Queryable, accountId: number, expected: number, general: Record<string, unknown>): Promise<boolean> {
  // Each step checks and writes in one statement, so two saves at once cannot both pass (on
  // PostgreSQL their transactions run side by side: the row lock and the re-checked WHERE decide).
  const json = JSON.stringify(general);
  if (expected === 1) {
    const made = await q.one('INSERT INTO account_settings (account_id, version, general_json) VALUES ($1, 2, $2) ON CONFLICT (account_id) DO NOTHING RETURNING version', [accountId, json]);
    if (made) return true;
  }
  const moved = await q.one('UPDATE account_settings SET version = version + 1, general_json = $2 WHERE account_id = $1 AND version = $3 RETURNING version', [accountId, json, expected]);
  return moved !== undefined;
}
