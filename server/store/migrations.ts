// Numbered migrations, applied in order at start inside one transaction each. A migration
// is never edited once released: add the next number instead.
import type { Queryable } from './db.js';

export interface Migration {
  id: number;
  name: string;
  up: string[];
}

export const migrations: Migration[] = [
  {
    id: 1,
    name: 'accounts, users and login sessions',
    up: [
      `CREATE SEQUENCE account_id_seq START 1`,
      `CREATE TABLE accounts (
         id INTEGER PRIMARY KEY DEFAULT nextval('account_id_seq'),
         name VARCHAR NOT NULL,
         created_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
      `CREATE SEQUENCE user_id_seq START 1`,
      `CREATE TABLE users (
         id INTEGER PRIMARY KEY DEFAULT nextval('user_id_seq'),
         account_id INTEGER NOT NULL REFERENCES accounts(id),
         name VARCHAR NOT NULL,
         email VARCHAR NOT NULL,
         password_hash VARCHAR NOT NULL,
         roles VARCHAR[] NOT NULL DEFAULT [],
         is_root BOOLEAN NOT NULL DEFAULT false,
         temp_password BOOLEAN NOT NULL DEFAULT false,
         created_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
      `CREATE UNIQUE INDEX users_name_lower ON users (lower(name))`,
      `CREATE TABLE login_sessions (
         token_hash VARCHAR PRIMARY KEY,
         user_id INTEGER NOT NULL,
         persistent BOOLEAN NOT NULL,
         created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
         expires_at TIMESTAMPTZ NOT NULL)`,
    ],
  },
];

export async function applyMigrations(q: Queryable): Promise<number[]> {
  await q.run(`CREATE TABLE IF NOT EXISTS schema_migrations (
    id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
  const done = new Set((await q.all<{ id: number }>('SELECT id FROM schema_migrations')).map((r) => r.id));
  const applied: number[] = [];
  for (const m of migrations) {
    if (done.has(m.id)) continue;
    await q.run('BEGIN TRANSACTION');
    try {
      for (const sql of m.up) await q.run(sql);
      await q.run('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [m.id, m.name]);
      await q.run('COMMIT');
    } catch (err) {
      await q.run('ROLLBACK');
      throw new Error(`migration ${m.id} (${m.name}) failed: ${(err as Error).message}`);
    }
    applied.push(m.id);
  }
  return applied;
}
