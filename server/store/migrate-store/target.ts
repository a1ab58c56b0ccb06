// migrate-store's target: the PostgreSQL database, checked before anything is written (an
// empty database, or this appliance's copy under way), and its record of the copy: which
// appliance it holds and every chunk done, each written in its chunk's own transaction, so a
// run after a kill goes on where the last commit left it, nothing twice, nothing missed.
import pg from 'pg';
import { connectWithRetry, describeUrl } from '../postgres/connect.js';
import { MigrateError } from './errors.js';

/** The copy's record in the target (kept after it finished: when and from which file). */
export const CopyTables = [
  `CREATE TABLE IF NOT EXISTS migrate_store_source (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     appliance VARCHAR NOT NULL,
     state VARCHAR NOT NULL,
     source_path VARCHAR NOT NULL,
     started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
     finished_at TIMESTAMPTZ)`,
  `CREATE TABLE IF NOT EXISTS migrate_store_chunks (
     chunk VARCHAR PRIMARY KEY,
     rows BIGINT NOT NULL,
     done_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
];

export interface TargetState {
  /** What the target holds of an earlier run: its appliance and source state, or nothing. */
  copy?: { appliance: string; state: string; finished: boolean };
}

/**
 * Before the migrations touch it: refuses a database that holds tables not Hopwatch's, or an
 * appliance's data this command did not copy, or another appliance's copy.
 */
export async function checkTarget(url: string, appliance: string, timeoutMs: number): Promise<TargetState> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on('error', () => undefined);
  try {
    await connectWithRetry(pool, url, { timeoutMs });
    const where = describeUrl(url);
    const one = async <T>(sql: string) => (await pool.query(sql)).rows[0] as T;
    const { migrated, ours, tables } = await one<{ migrated: boolean; ours: boolean; tables: number }>(
      `SELECT to_regclass('schema_migrations') IS NOT NULL AS migrated, to_regclass('migrate_store_source') IS NOT NULL AS ours,
              (SELECT count(*)::INTEGER FROM pg_tables WHERE schemaname = current_schema()) AS tables`,
    );
    if (!migrated) {
      if (tables > 0) throw new MigrateError('migrate-store', `the database ${where} holds ${tables} tables that are not Hopwatch's: name an empty database (CREATE DATABASE hopwatch OWNER ...)`);
      return {};
    }
    if (ours) {
      const row = await one<{ appliance: string; state: string; finished: boolean } | undefined>(`SELECT appliance, state, finished_at IS NOT NULL AS finished FROM migrate_store_source`);
      if (row && row.appliance !== appliance)
        throw new MigrateError('migrate-store', `the database ${where} holds the copy of another appliance (not the one in this data directory): name an empty database, or drop and create this one again`);
      if (row) return { copy: row };
    }
    const held = await one<{ accounts: number; sessions: number }>(`SELECT (SELECT count(*)::INTEGER FROM accounts) AS accounts, (SELECT count(*)::INTEGER FROM sessions) AS sessions`);
    if (held.accounts > 0 || held.sessions > 0)
      throw new MigrateError(
        'migrate-store',
        `the database ${where} already holds another appliance's data (${held.accounts} accounts, ${held.sessions} sessions) that migrate-store did not copy: name an empty database`,
      );
    return {};
  } finally {
    await pool.end().catch(() => undefined);
  }
}
