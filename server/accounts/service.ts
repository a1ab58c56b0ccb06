// Accounts of the cloud flavour (issue 23): the staff calls (list, create, suspend, set
// entitlements) and the account's own subscription. One function per operation.
import { AssignableClaims, Claim, DeploymentMode } from '../contract/account.js';
import {
  AccountNameMaxLength,
  EntitlementMax,
  PlanNameMaxLength,
  type CreateAccountRequest,
  type CreatedAccount,
  type SetEntitlementsRequest,
  type StaffAccount,
  type HubToken,
  type Subscription,
  type SuspendRequest,
} from '../contract/accounts.js';
import { requireClaim } from '../account/authenticate.js';
import { deleteOtherLoginSessions, hashToken } from '../account/login-sessions.js';
import { generatePassword, hashPassword } from '../account/passwords.js';
import type { Principal } from '../account/principal.js';
import type { Config } from '../config.js';
import type { DomainEventBus } from '../events.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import type { Queryable, Store } from '../store/db.js';
import { findUserByLogin, insertUser } from '../users/repository.js';
import { emailAddressProblem } from '../users/email-address.js';
import * as agentsRepo from '../agents/repository.js';
import * as repo from './repository.js';
import { insertConfiguration } from '../settings/repository.js';
import { localMachineUse, localMachineUseOf, pauseRefusedLocalMachineTraces } from './local-machine.js';

export interface AccountsDeps {
  store: Store;
  config: Config;
  events: DomainEventBus;
  /** The appliance's default entitled traces (HOPWATCH_ENTITLED_TRACES). */
  defaultEntitledTraces: number;
  isAgentOnline: (agentId: number) => boolean;
  /** Stops a running trace where it runs (the grant of the Local Machine taken back pauses its traces). */
  pauseTrace: (sessionId: number) => void;
}

function cloudOnly(deps: AccountsDeps): void {
  // Self-hosted has one account and no subscriptions: the pages do not exist there.
  if (deps.config.deployment !== DeploymentMode.Cloud) throw notFound('Accounts and subscriptions exist only in the cloud flavour (HOPWATCH_DEPLOYMENT=1).');
}

function staff(deps: AccountsDeps, p: Principal): void {
  requireClaim(p, Claim.Staff);
  cloudOnly(deps);
}

const entitledTracesOf = (deps: AccountsDeps, a: repo.AccountRecord) => a.entitledTraces ?? deps.defaultEntitledTraces;

function toStaffAccount(deps: AccountsDeps, a: repo.AccountRecord, use: repo.AccountUse | undefined): StaffAccount {
  const local = localMachineUseOf(deps.config.deployment, a, use?.holdsRoot === true);
  return {
    Id: a.id,
    Name: a.name,
    CreatedAt: a.createdAt,
    Plan: a.plan,
    EntitledTraces: entitledTracesOf(deps, a),
    EntitledAgents: a.entitledAgents,
    Suspended: a.suspended,
    SuspendedReason: a.suspendedReason,
    IsProvider: a.provider,
    LocalMachine: local.allowed,
    Users: use?.users ?? 0,
    Agents: use?.agents ?? 0,
    // The traces counted against EntitledTraces (a customer's Local Machine ones too).
    ActiveTraces: (use?.activeTraces ?? 0) + (local.counted ? (use?.activeLocalTraces ?? 0) : 0),
  };
}

async function staffAccount(deps: AccountsDeps, q: Queryable, id: number): Promise<StaffAccount> {
  const [a, use] = await Promise.all([repo.findAccount(q, id), repo.accountUse(q)]);
  if (!a) throw notFound(`Account ${id} not found.`);
  return toStaffAccount(deps, a, use.get(id));
}

export async function listAccounts(deps: AccountsDeps, p: Principal): Promise<StaffAccount[]> {
  staff(deps, p);
  const [rows, use] = await deps.store.read((q) => Promise.all([repo.listAccounts(q), repo.accountUse(q)]));
  return rows.map((a) => toStaffAccount(deps, a, use.get(a.id)));
}

function cleanName(raw: string | undefined, what: string, max: number, required: boolean): string {
  const s = (raw ?? '').trim();
  if (required && !s) throw badRequest(`${what} is required.`);
  if (s.length > max) throw badRequest(`${what} has at most ${max} characters.`);
  if (/[\u0000-\u001f\u007f]/.test(s)) throw badRequest(`${what} cannot hold control characters.`);
  return s;
}

function entitlement(n: number | null | undefined, what: string): number | null | undefined {
  if (n === undefined || n === null) return n;
  if (!Number.isInteger(n) || n < 0 || n > EntitlementMax) throw badRequest(`${what} must be a whole number from 0 to ${EntitlementMax}.`);
  return n;
}

export async function createAccount(deps: AccountsDeps, p: Principal, req: CreateAccountRequest): Promise<CreatedAccount> {
  staff(deps, p);
  const name = cleanName(req.Name, 'An account name', AccountNameMaxLength, true);
  const plan = cleanName(req.Plan, 'A plan name', PlanNameMaxLength, false);
  const traces = entitlement(req.EntitledTraces, 'Entitled traces');
  const agents = entitlement(req.EntitledAgents, 'Entitled agents');
  const email = (req.UserEmail ?? '').trim();
  const emailProblem = emailAddressProblem(email);
  if (emailProblem) throw badRequest(`The first user needs a valid e-mail address: ${emailProblem}`);
  const password = generatePassword();
  const hash = await hashPassword(password);
  const made = await deps.store.transaction(async (q) => {
    if (await repo.accountNameTaken(q, name)) throw conflict(`An account named ${name} exists already.`);
    // User names are unique across accounts (sign-in knows no account).
    if (await findUserByLogin(q, email)) throw conflict(`A user named ${email} exists already.`);
    const accountId = await repo.insertAccount(q, name);
    await repo.savePlan(q, accountId, {
      plan,
      entitledTraces: traces ?? null,
      entitledAgents: agents ?? null,
      suspended: false,
      suspendedReason: '',
      provider: false,
      localMachine: req.LocalMachine === true,
    });
    // Its Default configuration now, as the first start gives the first account one: a trace
    // can start before anyone opens Settings.
    await insertConfiguration(q, accountId, { name: 'Default', description: 'Default settings', warn: 100, bad: 250, scale: 100, engine: {} });
    // The first user manages the account (every assignable claim) but is not the appliance's root.
    const userId = await insertUser(q, { accountId, name: email, email, passwordHash: hash, roles: [...AssignableClaims], isRoot: false, tempPassword: true });
    return { accountId, userId };
  });
  const account = await deps.store.read((q) => staffAccount(deps, q, made.accountId));
  return { Account: account, UserId: made.userId, UserName: email, TemporaryPassword: password };
}

async function existing(deps: AccountsDeps, id: number): Promise<repo.AccountRecord> {
  const a = await deps.store.read((q) => repo.findAccount(q, id));
  if (!a) throw notFound(`Account ${id} not found.`);
  return a;
}

const planOf = (a: repo.AccountRecord): repo.PlanFields => ({
  plan: a.plan,
  entitledTraces: a.entitledTraces,
  entitledAgents: a.entitledAgents,
  suspended: a.suspended,
  suspendedReason: a.suspendedReason,
  provider: a.provider,
  localMachine: a.localMachine,
});

export async function setEntitlements(deps: AccountsDeps, p: Principal, id: number, req: SetEntitlementsRequest): Promise<StaffAccount> {
  staff(deps, p);
  const a = await existing(deps, id);
  const next = planOf(a);
  if (req.Plan !== undefined) next.plan = cleanName(req.Plan, 'A plan name', PlanNameMaxLength, false);
  if (req.EntitledTraces !== undefined) next.entitledTraces = entitlement(req.EntitledTraces, 'Entitled traces') ?? null;
  if (req.EntitledAgents !== undefined) next.entitledAgents = entitlement(req.EntitledAgents, 'Entitled agents') ?? null;
  if (req.LocalMachine !== undefined) next.localMachine = req.LocalMachine;
  const paused = await deps.store.transaction(async (q) => {
    await repo.savePlan(q, id, next);
    // The Local Machine taken back: its running traces stop now (paused, kept), not at the next start.
    return pauseRefusedLocalMachineTraces(q, deps.config.deployment, id);
  });
  for (const sessionId of paused) deps.pauseTrace(sessionId);
  if (paused.length) deps.events.emit('SessionsChanged', id);
  // The account's Agents page and subscription show the new figures (and the Local Machine or not).
  deps.events.emit('AgentsChanged', id);
  return deps.store.read((q) => staffAccount(deps, q, id));
}

export async function suspendAccount(deps: AccountsDeps, p: Principal, id: number, req: SuspendRequest): Promise<StaffAccount> {
  staff(deps, p);
  const a = await existing(deps, id);
  if (a.provider && req.Suspended) throw conflict('The provider account cannot be suspended.');
  // The root user's account: suspending it would lock the appliance's operator out.
  if (req.Suspended && (await deps.store.read((q) => repo.holdsRootUser(q, id)))) throw conflict("The root user's account cannot be suspended.");
  const reason = req.Suspended ? cleanName(req.Reason, 'A reason', 500, false) : '';
  const users = await deps.store.transaction(async (q) => {
    await repo.savePlan(q, id, { ...planOf(a), suspended: req.Suspended, suspendedReason: reason });
    if (!req.Suspended) return [];
    // Signed-in users (and their hub connections) of a suspended account are signed out.
    const ids = await repo.userIdsOfAccount(q, id);
    for (const u of ids) await deleteOtherLoginSessions(q, u, undefined);
    return ids;
  });
  for (const u of users) deps.events.emit('LoginSessionsEnded', u, undefined);
  return deps.store.read((q) => staffAccount(deps, q, id));
}

/** The remote traces the account may run at once (the entitlement the trace start checks). */
export async function entitledTraces(q: Queryable, accountId: number, fallback: number): Promise<number> {
  const a = await repo.findAccount(q, accountId);
  return a?.entitledTraces ?? fallback;
}

export async function getSubscription(deps: AccountsDeps, p: Principal): Promise<Subscription> {
  requireClaim(p, Claim.UserManagement);
  cloudOnly(deps);
  const [a, agents, active] = await deps.store.read(async (q) => {
    const local = await localMachineUse(q, deps.config.deployment, p.accountId);
    return Promise.all([repo.findAccount(q, p.accountId), agentsRepo.listAgents(q, p.accountId), agentsRepo.activeRemoteTraces(q, p.accountId, local.counted)]);
  });
  if (!a) throw notFound('Your account no longer exists.');
  // The Agents Overview's AGENT CAPACITY figures: online, offline (configured), pending (not yet enrolled).
  let online = 0;
  let offline = 0;
  let pending = 0;
  for (const g of agents) {
    if (g.credentialHash === null) pending++;
    else if (deps.isAgentOnline(g.id)) online++;
    else offline++;
  }
  return {
    AccountName: a.name,
    Plan: a.plan,
    EntitledTraces: entitledTracesOf(deps, a),
    ActiveTraces: active,
    EntitledAgents: a.entitledAgents,
    OnlineAgents: online,
    OfflineAgents: offline,
    PendingAgents: pending,
  };
}

/**
 * The bearer token of the cloud console's hub connection: the session token of the cookie
 * this request signed in with (so impersonation, sign-out and password changes apply to the
 * hub as to REST). Cloud only; a principal not signed in by cookie has none to give.
 */
export function hubToken(deps: AccountsDeps, p: Principal, cookieToken: string | undefined): HubToken {
  cloudOnly(deps);
  if (!cookieToken || !p.loginSession || hashToken(cookieToken) !== p.loginSession) throw notFound('This sign-in has no token for the live connection.');
  return { Token: cookieToken };
}
