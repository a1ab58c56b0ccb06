// Lookup (/staff/lookup): which account a user name, e-mail, agent id, target (address or
// name) or LiveShare id belongs to. Case-insensitive "contains" matches; ids also match whole.
import type { LookupMatch } from '../../contract/staff.js';
import type { Queryable } from '../../store/db.js';

// The account's first user (by id): whom to impersonate or read events of from a match that
// names no user.
const firstUser = (account: string) => `(SELECT min(id) FROM users WHERE account_id = ${account})`;

export async function lookup(q: Queryable, text: string, limit: number): Promise<LookupMatch[]> {
  const rows = await q.all<LookupMatch>(
    `WITH m AS (
       SELECT 'UserName' AS "Kind", u.account_id AS acc, u.name AS "Matched", u.id AS "UserId", 1 AS rank
         FROM users u WHERE u.name <> '' AND contains(lower(u.name), lower($1))
       UNION ALL
       SELECT 'Email', u.account_id, u.email, u.id, 2 FROM users u WHERE contains(lower(u.email), lower($1))
       UNION ALL
       SELECT 'Agent', g.account_id, g.unique_id || ' (' || g.name || ', id ' || g.id || ')', ${firstUser('g.account_id')}, 3
         FROM agents g WHERE lower(g.unique_id) = lower($1) OR CAST(g.id AS VARCHAR) = $1 OR contains(lower(g.name), lower($1))
       UNION ALL
       SELECT DISTINCT 'Target', s.account_id, s.original_target || CASE WHEN s.target_ip <> '' AND s.target_ip <> s.original_target THEN ' (' || s.target_ip || ')' ELSE '' END,
              ${firstUser('s.account_id')}, 4
         FROM sessions s WHERE contains(lower(s.original_target), lower($1)) OR contains(lower(s.target_name), lower($1)) OR s.target_ip = $1
       UNION ALL
       SELECT 'LiveShare', l.account_id, l.share_id || CASE WHEN l.description <> '' THEN ' (' || l.description || ')' ELSE '' END, ${firstUser('l.account_id')}, 5
         FROM liveshare_links l WHERE contains(lower(l.share_id), lower($1))
       UNION ALL
       SELECT 'Account', a.id, a.name || ' (id ' || a.id || ')', ${firstUser('a.id')}, 6
         FROM accounts a WHERE contains(lower(a.name), lower($1)) OR CAST(a.id AS VARCHAR) = $1
     )
     SELECT m."Kind", m.acc AS "AccountId", coalesce(a.name, '') AS "AccountName", m."Matched", m."UserId"
     FROM m LEFT JOIN accounts a ON a.id = m.acc
     ORDER BY m.rank, m.acc, m."Matched" LIMIT $2`,
    [text, limit],
  );
  return rows.map((r) => ({ ...r, UserId: r.UserId === null || r.UserId === undefined ? null : Number(r.UserId) }));
}
