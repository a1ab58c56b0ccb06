// Who may trace from the Local Machine (agent -1), issue 39 item 15. The Local Machine is the
// server Hopwatch runs on. Self-hosted that is the operator's own machine: every account uses
// it, uncounted, as before. In the hosted flavour (HOPWATCH_DEPLOYMENT=1) it is the provider's
// server, inside the provider's networks: a customer account traces from its own agents only,
// unless staff grant it the Local Machine (account_plans.local_machine, migration 19), and a
// granted account's Local Machine traces count against its entitled traces like its agents'.
// The provider's accounts keep it, uncounted: the provider account (the staff users') and the
// account of the root user (the appliance's operator, docs/accounts.md).
import { DeploymentMode } from '../contract/account.js';
import { LocalMachineRefusedText } from '../contract/accounts.js';
import { LocalMachineAgentId, SessionState } from '../contract/sessions.js';
import { conflict } from '../http/errors.js';
import type { Queryable } from '../store/db.js';
import { setSessionState } from '../targets/repository.js';
import { findAccount, holdsRootUser, type AccountRecord } from './repository.js';

export interface LocalMachineUse {
  /** The account may trace from the Local Machine, and sees it among its agents. */
  allowed: boolean;
  /** Its active Local Machine traces count against its entitled traces. */
  counted: boolean;
}

const Provider: LocalMachineUse = { allowed: true, counted: false };

/** The rule itself, for an account already read (`holdsRoot`: the root user is one of its users). */
export function localMachineUseOf(deployment: DeploymentMode, account: Pick<AccountRecord, 'provider' | 'localMachine'> | undefined, holdsRoot: boolean): LocalMachineUse {
  if (deployment !== DeploymentMode.Cloud) return Provider;
  if (account?.provider || holdsRoot) return Provider;
  return { allowed: account?.localMachine === true, counted: true };
}

export async function localMachineUse(q: Queryable, deployment: DeploymentMode, accountId: number): Promise<LocalMachineUse> {
  if (deployment !== DeploymentMode.Cloud) return Provider;
  const [account, root] = await Promise.all([findAccount(q, accountId), holdsRootUser(q, accountId)]);
  return localMachineUseOf(deployment, account, root);
}

/** Throws the refusal (409: a 403 would sign the console out, as for the capacity refusal) unless allowed. */
export async function requireLocalMachine(q: Queryable, deployment: DeploymentMode, accountId: number): Promise<LocalMachineUse> {
  const use = await localMachineUse(q, deployment, accountId);
  if (!use.allowed) throw conflict(LocalMachineRefusedText);
  return use;
}

/**
 * Pauses the active Local Machine traces of customer accounts without the grant (of one
 * account, or of all) in the store; answers their ids, for the caller to stop them where they
 * run. What a grant taken back does, and a start after an upgrade. Nothing self-hosted.
 */
export async function pauseRefusedLocalMachineTraces(q: Queryable, deployment: DeploymentMode, accountId?: number): Promise<number[]> {
  if (deployment !== DeploymentMode.Cloud) return [];
  const rows = await q.all<{ id: number }>(
    `SELECT s.id FROM sessions s LEFT JOIN account_plans p ON p.account_id = s.account_id
     WHERE s.state = $1 AND s.sentinel_id = $2 AND ($3::INTEGER IS NULL OR s.account_id = $3)
       AND NOT coalesce(p.provider, false) AND NOT coalesce(p.local_machine, false)
       AND NOT EXISTS (SELECT 1 FROM users u WHERE u.account_id = s.account_id AND u.is_root)
     ORDER BY s.id`,
    [SessionState.Active, LocalMachineAgentId, accountId ?? null],
  );
  const ids = rows.map((r) => Number(r.id));
  for (const id of ids) await setSessionState(q, id, SessionState.Pause, null);
  return ids;
}
