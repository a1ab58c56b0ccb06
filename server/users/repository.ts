// Rows of the users table and the queries on it.
import type { Queryable } from '../store/db.js';
import { list } from '../store/dialect.js';

export interface UserRecord {
  id: number;
  accountId: number;
  name: string;
  email: string;
  passwordHash: string;
  roles: string[];
  isRoot: boolean;
  tempPassword: boolean;
}

/** A user's columns as UserRecord names them; `t`: the table's alias in a join. */
export const userColumns = (t = '') => `${t}id, ${t}account_id AS "accountId", ${t}name, ${t}email, ${t}password_hash AS "passwordHash",
  ${t}roles, ${t}is_root AS "isRoot", ${t}temp_password AS "tempPassword"`;
const columns = userColumns();

function fromRow(row: Record<string, unknown>): UserRecord {
  return { ...(row as unknown as UserRecord), roles: [...((row.roles as string[] | null) ?? [])] };
}

export async function findUserByLogin(q: Queryable, login: string): Promise<UserRecord | undefined> {
  const row = await q.one(
    `SELECT ${columns} FROM users WHERE lower(name) = lower($1) OR lower(email) = lower($1) ORDER BY is_root DESC, id LIMIT 1`,
    [login],
  );
  return row && fromRow(row);
}

export async function findUserById(q: Queryable, id: number): Promise<UserRecord | undefined> {
  const row = await q.one(`SELECT ${columns} FROM users WHERE id = $1`, [id]);
  return row && fromRow(row);
}

export async function listUsers(q: Queryable, accountId: number): Promise<UserRecord[]> {
  const rows = await q.all(`SELECT ${columns} FROM users WHERE account_id = $1 ORDER BY lower(email), id`, [accountId]);
  return rows.map(fromRow);
}

export async function rootUserExists(q: Queryable): Promise<boolean> {
  return (await q.one('SELECT id FROM users WHERE is_root LIMIT 1')) !== undefined;
}

export async function insertUser(q: Queryable, u: Omit<UserRecord, 'id'>): Promise<number> {
  const row = await q.one<{ id: number }>(
    `INSERT INTO users (account_id, name, email, password_hash, roles, is_root, temp_password)
     VALUES ($1, $2, $3, $4, $5::VARCHAR[], $6, $7) RETURNING id`,
    [u.accountId, u.name, u.email, u.passwordHash, roles(u.roles), u.isRoot, u.tempPassword],
  );
  return row!.id;
}

export async function updateUserRoles(q: Queryable, id: number, names: string[]): Promise<void> {
  await q.run(`UPDATE users SET roles = $2::VARCHAR[] WHERE id = $1`, [id, roles(names)]);
}

export async function updateUserPassword(q: Queryable, id: number, passwordHash: string, temporary: boolean): Promise<void> {
  await q.run('UPDATE users SET password_hash = $2, temp_password = $3 WHERE id = $1', [id, passwordHash, temporary]);
}

export async function deleteUser(q: Queryable, id: number): Promise<void> {
  await q.run('DELETE FROM login_sessions WHERE user_id = $1', [id]);
  await q.run('DELETE FROM users WHERE id = $1', [id]);
}

/** Roles travel as one list parameter (a VARCHAR[] on both backends), blanks left out. */
function roles(names: string[]) {
  return list(names.filter((r) => r !== ''));
}
