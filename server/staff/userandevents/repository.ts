// Rows of user_events (migration 16): a user's recent sign-ins, failed sign-ins, changes and
// errors. Method and route pattern only: never a query (PATCH /api/Account?newPassword=...),
// never a body, never a header.
import type { Queryable } from '../../store/db.js';
import type { UserEvent, UserEventKind } from '../../contract/staff.js';
import { isoOf } from '../time.js';

/** How long events are kept, and at most how many per user (the newest). */
export const UserEventRetentionDays = 30;
export const UserEventsPerUser = 1000;

export interface UserEventRecord {
  accountId: number;
  userId: number;
  kind: UserEventKind;
  method?: string;
  route?: string;
  status?: number;
  address?: string;
  detail?: string;
}

export async function insertUserEvent(q: Queryable, e: UserEventRecord): Promise<void> {
  await q.run(
    `INSERT INTO user_events (account_id, user_id, kind, method, route, status, address, detail) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [e.accountId, e.userId, e.kind, e.method ?? '', (e.route ?? '').slice(0, 300), e.status ?? 0, e.address ?? '', (e.detail ?? '').slice(0, 300)],
  );
}

export async function listUserEvents(q: Queryable, userId: number, limit: number, kind?: UserEventKind): Promise<UserEvent[]> {
  const rows = await q.all<Omit<UserEvent, 'Time'> & { Time: number }>(
    `SELECT id AS "Id", epoch_ms(occurred_at) AS "Time", kind AS "Kind", method AS "Method", route AS "Route",
            status AS "Status", address AS "Address", detail AS "Detail"
     FROM user_events WHERE user_id = $1 AND ($3::VARCHAR IS NULL OR kind = $3)
     ORDER BY occurred_at DESC, id DESC LIMIT $2`,
    [userId, limit, kind ?? null],
  );
  return rows.map((r) => ({ ...r, Id: Number(r.Id), Time: isoOf(r.Time)!, Status: Number(r.Status) }));
}

/** Keeps the table bounded: older than the retention, or past the newest rows of a user. */
export async function purgeUserEvents(q: Queryable): Promise<void> {
  await q.run(`DELETE FROM user_events WHERE occurred_at < now() - to_days($1::INTEGER)`, [UserEventRetentionDays]);
  await q.run(
    `DELETE FROM user_events WHERE id IN (
       SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY user_id ORDER BY occurred_at DESC, id DESC) AS n FROM user_events) AS ranked WHERE n > $1)`,
    [UserEventsPerUser],
  );
}
