// SQL of LiveShare links and their history (migration 9).
import type { Queryable } from '../store/db.js';

export interface LinkRecord {
  id: number;
  shareId: string;
  pwDigest: string;
  pwSealed: string;
  description: string;
  notes: string;
  active: boolean;
  createdAt: number;
  expiresAt: number | null;
  summaryRef: string;
  targetRef: string;
  accountId: number;
  createdBy: string;
}

export interface HistoryRecord {
  id: number;
  linkId: number;
  shareId: string;
  at: number;
  address: string;
  action: string;
  logText: string;
}

const columns = `id, share_id AS "shareId", pw_digest AS "pwDigest", pw_sealed AS "pwSealed", description, notes, active,
  created_at AS "createdAt", expires_at AS "expiresAt", summary_ref AS "summaryRef", target_ref AS "targetRef",
  account_id AS "accountId", created_by AS "createdBy"`;

const fix = (r: LinkRecord | undefined): LinkRecord | undefined =>
  r && { ...r, createdAt: Number(r.createdAt), expiresAt: r.expiresAt === null ? null : Number(r.expiresAt) };

export async function listLinks(q: Queryable, accountId: number, summaryRef?: string): Promise<LinkRecord[]> {
  const rows = summaryRef === undefined
    ? await q.all<LinkRecord>(`SELECT ${columns} FROM liveshare_links WHERE account_id = $1 ORDER BY id`, [accountId])
    : await q.all<LinkRecord>(`SELECT ${columns} FROM liveshare_links WHERE account_id = $1 AND summary_ref = $2 ORDER BY id`, [accountId, summaryRef]);
  return rows.map((r) => fix(r)!);
}

export async function findLink(q: Queryable, shareId: string): Promise<LinkRecord | undefined> {
  return fix(await q.one<LinkRecord>(`SELECT ${columns} FROM liveshare_links WHERE share_id = $1`, [shareId]));
}

export async function findLinkById(q: Queryable, id: number): Promise<LinkRecord | undefined> {
  return fix(await q.one<LinkRecord>(`SELECT ${columns} FROM liveshare_links WHERE id = $1`, [id]));
}

export async function insertLink(q: Queryable, l: Omit<LinkRecord, 'id'>): Promise<number> {
  const row = await q.one<{ id: number }>(
    `INSERT INTO liveshare_links (share_id, pw_digest, pw_sealed, description, notes, active, created_at, expires_at, summary_ref, target_ref, account_id, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
    [l.shareId, l.pwDigest, l.pwSealed, l.description, l.notes, l.active, l.createdAt, l.expiresAt, l.summaryRef, l.targetRef, l.accountId, l.createdBy],
  );
  return row!.id;
}

export async function updateLink(q: Queryable, id: number, l: Pick<LinkRecord, 'description' | 'notes' | 'active' | 'expiresAt' | 'summaryRef' | 'targetRef'>): Promise<void> {
  await q.run(
    `UPDATE liveshare_links SET description = $2, notes = $3, active = $4, expires_at = $5, summary_ref = $6, target_ref = $7 WHERE id = $1`,
    [id, l.description, l.notes, l.active, l.expiresAt, l.summaryRef, l.targetRef],
  );
}

export async function deleteLinkRow(q: Queryable, id: number): Promise<void> {
  await q.run('DELETE FROM liveshare_links WHERE id = $1', [id]);
}

export async function addHistory(q: Queryable, h: { linkId: number; shareId: string; accountId: number; at: number; address: string; action: string; logText: string }): Promise<number> {
  const row = await q.one<{ id: number }>(
    'INSERT INTO liveshare_history (link_id, share_id, account_id, happened_at, address, action, log_text) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id',
    [h.linkId, h.shareId, h.accountId, h.at, h.address, h.action, h.logText],
  );
  return Number(row!.id);
}

export async function historyOf(q: Queryable, accountId: number, shareId: string): Promise<HistoryRecord[]> {
  const rows = await q.all<HistoryRecord>(
    `SELECT id, link_id AS "linkId", share_id AS "shareId", happened_at AS at, address, action, log_text AS "logText"
     FROM liveshare_history WHERE account_id = $1 AND share_id = $2 ORDER BY happened_at, id`,
    [accountId, shareId],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id), at: Number(r.at) }));
}
