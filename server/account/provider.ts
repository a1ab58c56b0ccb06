// Whether a principal speaks for the appliance's provider (Principal.provider): the root user,
// who is the appliance operator (docs/accounts.md), or a user of the provider account, the one
// marked provider in account_plans (server/accounts/staff-user.ts; the staff users live there).
import type { Queryable } from '../store/db.js';

/** A primary-key look-up, asked once per login-session resolution; root needs none. */
export async function speaksForProvider(q: Queryable, p: { isRoot: boolean; accountId: number }): Promise<boolean> {
  if (p.isRoot) return true;
  const row = await q.one<{ provider: boolean }>('SELECT provider FROM account_plans WHERE account_id = $1', [p.accountId]);
  return row?.provider === true;
}
