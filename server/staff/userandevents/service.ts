// Users and Events (/staff/userandevents): find a user of any account, read their recent events.
import type { StaffUser, UserEvent, UserEventKind } from '../../contract/staff.js';
import { notFound } from '../../http/errors.js';
import type { Queryable, Store } from '../../store/db.js';
import { listUserEvents } from './repository.js';

/** Users whose name or e-mail contains `text` (every user when empty), across accounts. */
export async function findUsers(store: Store, text: string, limit: number): Promise<StaffUser[]> {
  return store.read((q) => usersMatching(q, text, limit));
}

export async function usersMatching(q: Queryable, text: string, limit: number, exact = false): Promise<StaffUser[]> {
  const rows = await q.all<StaffUser & { Roles: string[] | null }>(
    `SELECT u.id AS "Id", u.name AS "Name", u.email AS "EmailAddress", u.account_id AS "AccountId", coalesce(a.name, '') AS "AccountName",
            u.roles AS "Roles", u.is_root AS "IsRoot"
     FROM users u LEFT JOIN accounts a ON a.id = u.account_id
     WHERE $1 = '' OR (CASE WHEN $3 THEN lower(u.name) = lower($1) OR lower(u.email) = lower($1)
                            ELSE contains(lower(u.name), lower($1)) OR contains(lower(u.email), lower($1)) END)
     ORDER BY u.account_id, lower(u.email), u.id LIMIT $2`,
    [text.trim(), limit, exact],
  );
  return rows.map((r) => ({ ...r, Roles: [...(r.Roles ?? [])] }));
}

export async function userEvents(store: Store, userId: number, limit: number, kind?: UserEventKind): Promise<UserEvent[]> {
  return store.read(async (q) => {
    const user = await q.one('SELECT id FROM users WHERE id = $1', [userId]);
    if (!user) throw notFound(`User ${userId} not found.`);
    return listUserEvents(q, userId, limit, kind);
  });
}
