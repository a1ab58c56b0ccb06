// SQL of the key-value store. Account-scope rows have user_id 0.
import type { Queryable } from '../store/db.js';

export interface KvpAddress {
  accountId: number;
  userId: number;
  scope: number;
  key: string;
}

export async function readValue(q: Queryable, a: KvpAddress): Promise<string | undefined> {
  const row = await q.one<{ value: string }>(
    'SELECT value FROM kvp WHERE account_id = $1 AND user_id = $2 AND scope = $3 AND key = $4',
    [a.accountId, a.userId, a.scope, a.key],
  );
  return row?.value;
}

export async function writeValue(q: Queryable, a: KvpAddress, value: string): Promise<void> {
  await q.run(
    `INSERT INTO kvp (account_id, user_id, scope, key, value) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (account_id, user_id, scope, key) DO UPDATE SET value = excluded.value`,
    [a.accountId, a.userId, a.scope, a.key, value],
  );
}
