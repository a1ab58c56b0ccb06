// Rows of the impersonations table (which login session acts as whom) and of the
// impersonation audit (migration 12).
import type { ImpersonationAction, ImpersonationAuditEntry } from '../contract/account.js';
import type { Queryable } from '../store/db.js';

export interface ImpersonationRow {
  actorUserId: number;
  asUserId: number;
}

export async function findImpersonation(q: Queryable, tokenHash: string): Promise<ImpersonationRow | undefined> {
  return q.one<ImpersonationRow>(
    `SELECT actor_user_id AS "actorUserId", as_user_id AS "asUserId" FROM impersonations WHERE token_hash = $1`,
    [tokenHash],
  );
}

export async function insertImpersonation(q: Queryable, tokenHash: string, row: ImpersonationRow, address: string): Promise<void> {
  await q.run(`INSERT INTO impersonations (token_hash, actor_user_id, as_user_id, address) VALUES ($1, $2, $3, $4)`, [
    tokenHash,
    row.actorUserId,
    row.asUserId,
    address,
  ]);
}

export async function deleteImpersonation(q: Queryable, tokenHash: string): Promise<void> {
  await q.run('DELETE FROM impersonations WHERE token_hash = $1', [tokenHash]);
}

/** Rows whose login session is gone (signed out, expired, user deleted). */
export async function purgeOrphanImpersonations(q: Queryable): Promise<void> {
  await q.run('DELETE FROM impersonations WHERE token_hash NOT IN (SELECT token_hash FROM login_sessions)');
}

export interface AuditRecord {
  accountId: number;
  actorUserId: number;
  actorName: string;
  asUserId: number;
  asName: string;
  action: ImpersonationAction;
  detail: string;
  status: number;
  address: string;
}

export async function insertAudit(q: Queryable, r: AuditRecord): Promise<void> {
  await q.run(
    `INSERT INTO impersonation_audit (account_id, actor_user_id, actor_name, as_user_id, as_name, action, detail, status, address)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [r.accountId, r.actorUserId, r.actorName, r.asUserId, r.asName, r.action, r.detail.slice(0, 500), r.status, r.address.slice(0, 100)],
  );
}

/** The newest rows of the account first. */
export async function listAudit(q: Queryable, accountId: number, limit: number): Promise<ImpersonationAuditEntry[]> {
  const rows = await q.all<Omit<ImpersonationAuditEntry, 'Time'> & { Time: number }>(
    `SELECT id AS "Id", epoch_ms(occurred_at) AS "Time", actor_name AS "Actor", actor_user_id AS "ActorId", as_name AS "AsUser",
            as_user_id AS "AsUserId", action AS "Action", detail AS "Detail", status AS "Status", address AS "Address"
     FROM impersonation_audit WHERE account_id = $1 ORDER BY id DESC LIMIT $2`,
    [accountId, limit],
  );
  return rows.map((r) => ({ ...r, Id: Number(r.Id), Time: new Date(Number(r.Time)).toISOString(), Status: Number(r.Status) }));
}
