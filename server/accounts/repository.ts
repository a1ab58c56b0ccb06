// Accounts and their plans (migration 15): the SQL of server/accounts/.
import type { Queryable } from '../store/db.js';

export interface AccountRecord {
  id: number;
  name: string;
  createdAt: number;
  plan: string;
  /** null: the appliance's default (HOPWATCH_ENTITLED_TRACES). */
  entitledTraces: number | null;
  /** null: no limit on agents. */
  entitledAgents: number | null;
  suspended: boolean;
  suspendedReason: string;
  /** The provider's own account, which holds the staff users. */
  provider: boolean;
  /** Staff granted it the Local Machine (migration 19; hosted flavour, server/accounts/local-machine.ts). */
  localMachine: boolean;
}

export interface AccountUse {
  users: number;
  agents: number;
  /** Active traces on remote agents. */
  activeTraces: number;
  /** Active traces on the Local Machine (counted for customers: local-machine.ts). */
  activeLocalTraces: number;
  /** The root user is one of its users (the operator's account keeps the Local Machine). */
  holdsRoot: boolean;
}

const columns = `a.id, a.name, epoch_ms(a.created_at) AS "createdAt", coalesce(p.plan, '') AS plan,
  p.entitled_traces AS "entitledTraces", p.entitled_agents AS "entitledAgents",
  coalesce(p.suspended, false) AS suspended, coalesce(p.suspended_reason, '') AS "suspendedReason",
  coalesce(p.provider, false) AS provider, coalesce(p.local_machine, false) AS "localMachine"`;

const fromRow = (r: Record<string, unknown>): AccountRecord => ({
  ...(r as unknown as AccountRecord),
  id: Number(r.id),
  createdAt: Number(r.createdAt),
  entitledTraces: r.entitledTraces === null ? null : Number(r.entitledTraces),
  entitledAgents: r.entitledAgents === null ? null : Number(r.entitledAgents),
});

export async function listAccounts(q: Queryable): Promise<AccountRecord[]> {
  const rows = await q.all(`SELECT ${columns} FROM accounts a LEFT JOIN account_plans p ON p.account_id = a.id ORDER BY a.id`);
  return rows.map(fromRow);
}

export async function findAccount(q: Queryable, id: number): Promise<AccountRecord | undefined> {
  const row = await q.one(`SELECT ${columns} FROM accounts a LEFT JOIN account_plans p ON p.account_id = a.id WHERE a.id = $1`, [id]);
  return row && fromRow(row);
}

export async function accountNameTaken(q: Queryable, name: string): Promise<boolean> {
  return (await q.one('SELECT id FROM accounts WHERE lower(name) = lower($1)', [name])) !== undefined;
}

export async function insertAccount(q: Queryable, name: string): Promise<number> {
  const row = await q.one<{ id: number }>('INSERT INTO accounts (name) VALUES ($1) RETURNING id', [name]);
  return Number(row!.id);
}

export interface PlanFields {
  plan: string;
  entitledTraces: number | null;
  entitledAgents: number | null;
  suspended: boolean;
  suspendedReason: string;
  provider: boolean;
  localMachine: boolean;
}

/** Writes the whole plan row (insert or replace). */
export async function savePlan(q: Queryable, accountId: number, f: PlanFields): Promise<void> {
  await q.run('DELETE FROM account_plans WHERE account_id = $1', [accountId]);
  await q.run(
    `INSERT INTO account_plans (account_id, plan, entitled_traces, entitled_agents, suspended, suspended_reason, provider, local_machine, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now())`,
    [accountId, f.plan, f.entitledTraces, f.entitledAgents, f.suspended, f.suspendedReason, f.provider, f.localMachine],
  );
}

/** Users, remote agents and active traces (remote, Local Machine) per account (the staff list's columns). */
export async function accountUse(q: Queryable): Promise<Map<number, AccountUse>> {
  const rows = await q.all<{ id: number; users: number; agents: number; traces: number; local: number; roots: number }>(
    `SELECT a.id,
       (SELECT count(*) FROM users u WHERE u.account_id = a.id) AS users,
       (SELECT count(*) FROM agents g WHERE g.account_id = a.id) AS agents,
       (SELECT count(*) FROM sessions s WHERE s.account_id = a.id AND s.state = 0 AND s.sentinel_id > 0) AS traces,
       (SELECT count(*) FROM sessions s WHERE s.account_id = a.id AND s.state = 0 AND s.sentinel_id = -1) AS local,
       (SELECT count(*) FROM users u WHERE u.account_id = a.id AND u.is_root) AS roots
     FROM accounts a`,
  );
  return new Map(
    rows.map((r) => [
      Number(r.id),
      { users: Number(r.users), agents: Number(r.agents), activeTraces: Number(r.traces), activeLocalTraces: Number(r.local), holdsRoot: Number(r.roots) > 0 },
    ]),
  );
}

/** The account's suspension, read on every request (a cheap primary-key look-up). */
export async function isSuspended(q: Queryable, accountId: number): Promise<{ suspended: boolean; reason: string }> {
  const row = await q.one<{ suspended: boolean; reason: string }>(
    'SELECT suspended, suspended_reason AS reason FROM account_plans WHERE account_id = $1',
    [accountId],
  );
  return { suspended: row?.suspended === true, reason: row?.reason ?? '' };
}

export async function providerAccountId(q: Queryable): Promise<number | undefined> {
  const row = await q.one<{ id: number }>('SELECT account_id AS id FROM account_plans WHERE provider ORDER BY account_id LIMIT 1');
  return row ? Number(row.id) : undefined;
}

export async function userIdsOfAccount(q: Queryable, accountId: number): Promise<number[]> {
  return (await q.all<{ id: number }>('SELECT id FROM users WHERE account_id = $1', [accountId])).map((r) => Number(r.id));
}

export async function holdsRootUser(q: Queryable, accountId: number): Promise<boolean> {
  return (await q.one('SELECT id FROM users WHERE account_id = $1 AND is_root LIMIT 1', [accountId])) !== undefined;
}
