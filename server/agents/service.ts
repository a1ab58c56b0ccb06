// Remote agents (spec 1 "Agents page", sections 4-8; spec 3 section 7.5): one function per
// operation, shared by the /cmd routes and the /mainHub methods. Every call needs the
// CloudConnectManagement claim and the "magneto" setting (HOPWATCH_REMOTE_AGENTS).
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Claim, DeploymentMode } from '../contract/account.js';
import {
  agentBundlePath,
  AgentNameMaxLength,
  capacityFullText,
  SetupKeySpentText,
  SetupLinkReplacedText,
  type Agent,
  type AgentDownloadLink,
  type AgentItem,
  type AgentTarget,
  type Entitlement,
} from '../contract/agents.js';
import { LocalMachineAgentId, LocalMachineAgentName, SessionState } from '../contract/sessions.js';
import { requireClaim } from '../account/authenticate.js';
import type { Principal } from '../account/principal.js';
import type { Config } from '../config.js';
import type { DomainEventBus } from '../events.js';
import { badRequest, conflict, forbidden, HttpError, notFound, unauthorized } from '../http/errors.js';
import type { Store } from '../store/db.js';
import type { TraceRunner } from '../targets/trace-runner.js';
import { setSessionState } from '../targets/repository.js';
import { formatSetupLink } from '../../agent/setup-link.js';
import type { AgentLinks } from './link.js';
import type { AgentSettings } from './settings.js';
import { hashKey, keyMatches, newKey } from './keys.js';
import * as repo from './repository.js';
import { findSetupKey, forgetSetupKey, keepSetupKey } from './setup-keys.js';
import { unreachableAddress } from './reachable-address.js';
import { publicUrlInForce } from '../settings/public-url.js';
import type { PasswordSeal } from '../liveshare/secrets.js';
import { entitledTraces } from '../accounts/service.js';
import { findAccount } from '../accounts/repository.js';
import { localMachineUse, requireLocalMachine } from '../accounts/local-machine.js';
import { agentCapacityText } from '../contract/accounts.js';
import type { LocalMachineDetails } from './local-machine-info.js';

export interface AgentDeps {
  store: Store;
  events: DomainEventBus;
  config: Config;
  settings: AgentSettings;
  links: AgentLinks;
  runner: TraceRunner;
  /** Seals the setup keys kept to show the same Auto Setup link again (agent-setup.key in the data directory). */
  seal: PasswordSeal;
  /** The Local Machine's row: the server's version, start and OS (local-machine-info.ts). */
  localMachine: LocalMachineDetails;
}

/** The Installer link (DownloadUrl): the x64 bundle; the install commands use the self-served installer, which picks the CPU (docs/agents.md). */
export const InstallerPath = agentBundlePath('x64');

function gate(deps: AgentDeps, p: Principal): void {
  requireClaim(p, Claim.CloudConnectManagement);
  if (!deps.settings.enabled) throw forbidden('Remote agents are turned off on this server (HOPWATCH_REMOTE_AGENTS=0).');
}

/** Whether remote agents are offered (the hub's GetIsMagneto). */
export function isMagneto(deps: Pick<AgentDeps, 'settings'>): boolean {
  return deps.settings.enabled;
}

function decodeName(raw: string): string {
  let name: string;
  try {
    name = decodeURIComponent(raw);
  } catch {
    throw badRequest('The agent name is not valid URL-encoded text.');
  }
  name = name.trim();
  if (!name) throw badRequest('An agent name is required.');
  if (name.length > AgentNameMaxLength) throw badRequest(`An agent name has at most ${AgentNameMaxLength} characters.`);
  if (/[\u0000-\u001f\u007f]/.test(name)) throw badRequest('An agent name cannot hold control characters.');
  return name;
}

/** `onlineBefore`: AgentLinks.onlineNow() taken before `a` was read (so a row online has its hello). */
function toAgent(a: repo.AgentRecord, counts: Map<number, { open: number; total: number }>, onlineBefore: ReadonlySet<number>): Agent {
  const c = counts.get(a.id) ?? { open: 0, total: 0 };
  const online = onlineBefore.has(a.id);
  return {
    ID: a.id,
    Name: a.name,
    UniqueID: a.uniqueId,
    IsOnline: online,
    OpenSessions: c.open,
    TotalSessions: c.total,
    SecurityKey: '',
    Configured: a.credentialHash !== null,
    LastMessageUnixTime: a.lastMessage === null ? null : Math.floor(a.lastMessage / 1000),
    MachineID: a.machineId,
    Platform: a.platform,
    Version: a.version,
    TargetVersion: a.version,
    ServiceRunning: online,
    MachineName: a.machineName,
    ClientDetails: '',
    Mode: a.mode as Agent['Mode'],
  };
}

async function ownAgent(deps: AgentDeps, p: Principal, id: number): Promise<repo.AgentRecord> {
  const a = await deps.store.read((q) => repo.findAgent(q, id));
  if (!a || a.accountId !== p.accountId) throw notFound(`Agent ${id} not found.`);
  return a;
}

async function agentOut(deps: AgentDeps, p: Principal, id: number): Promise<Agent> {
  const online = deps.links.onlineNow();
  const [a, counts] = await deps.store.read((q) => Promise.all([repo.findAgent(q, id), repo.sessionCounts(q, p.accountId)]));
  if (!a) throw notFound(`Agent ${id} not found.`);
  return toAgent(a, counts, online);
}

/**
 * The Local Machine where the account may trace from it (self-hosted; hosted: the provider's
 * accounts and a customer granted it, server/accounts/local-machine.ts) and the account's
 * remote agents, online first, then by name.
 */
export async function getAgents(deps: AgentDeps, p: Principal): Promise<(AgentItem & Partial<Agent>)[]> {
  const online = deps.links.onlineNow();
  const [rows, counts, local] = await deps.store.read((q) =>
    Promise.all([repo.listAgents(q, p.accountId), repo.sessionCounts(q, p.accountId), localMachineUse(q, deps.config.deployment, p.accountId)]),
  );
  const out: (AgentItem & Partial<Agent>)[] = [];
  if (local.allowed) {
    const c = counts.get(LocalMachineAgentId) ?? { open: 0, total: 0 };
    out.push({
      ID: LocalMachineAgentId,
      Name: LocalMachineAgentName,
      UniqueID: String(LocalMachineAgentId),
      IsOnline: true,
      OpenSessions: c.open,
      TotalSessions: c.total,
      Configured: true,
      MachineName: hostname(),
      Mode: 0,
      ...deps.localMachine,
    });
  }
  // Without the claim or with remote agents off, only the Local Machine (the target window's picker).
  if (!deps.settings.enabled || !p.claims.includes(Claim.CloudConnectManagement)) return out;
  return out.concat(rows.map((a) => toAgent(a, counts, online)));
}

/**
 * The account's active counted traces, its entitled traces, and its active Local Machine
 * traces that are not counted (a hosted customer's Local Machine traces count; self-hosted
 * and the provider's do not: server/accounts/local-machine.ts).
 */
async function countedTraces(deps: Pick<AgentDeps, 'store' | 'settings'> & { config: Pick<Config, 'deployment'> }, accountId: number): Promise<[number, number, number]> {
  return deps.store.read(async (q) => {
    const local = await localMachineUse(q, deps.config.deployment, accountId);
    const uncounted = local.allowed && !local.counted ? repo.activeLocalMachineTraces(q, accountId) : Promise.resolve(0);
    return Promise.all([repo.activeRemoteTraces(q, accountId, local.counted), entitledTraces(q, accountId, deps.settings.entitledTraces), uncounted]);
  });
}

export async function getEntitlement(deps: AgentDeps, p: Principal): Promise<Entitlement> {
  gate(deps, p);
  const [active, entitled, uncounted] = await countedTraces(deps, p.accountId);
  return { ActiveTraces: active, EntitledTraces: entitled, UncountedLocalMachineTraces: uncounted };
}

export async function createAgent(deps: AgentDeps, p: Principal, rawName: string): Promise<Agent> {
  gate(deps, p);
  const name = decodeName(rawName);
  const id = await deps.store.transaction(async (q) => {
    // The account's entitled agents (set by staff; none set: no limit).
    const limit = (await findAccount(q, p.accountId))?.entitledAgents ?? null;
    if (limit !== null && (await repo.listAgents(q, p.accountId)).length >= limit) throw conflict(agentCapacityText(limit));
    // Its setup key, kept: Create, Installer, Download Agent and Auto Setup all show this one.
    const key = newKey();
    const agentId = await repo.insertAgent(q, { accountId: p.accountId, uniqueId: randomUUID(), name, enrolHash: hashKey(key), createdAt: Date.now() });
    await keepSetupKey(q, { agentId, sealedKey: deps.seal.seal(key), replacedHash: null, createdAt: Date.now() });
    return agentId;
  });
  deps.events.emit('AgentsChanged', p.accountId);
  return agentOut(deps, p, id);
}

export async function updateAgentName(deps: AgentDeps, p: Principal, id: number, rawName: string): Promise<Agent> {
  gate(deps, p);
  await ownAgent(deps, p, id);
  const name = decodeName(rawName);
  await deps.store.exclusive((q) => repo.renameAgent(q, id, name));
  deps.events.emit('AgentsChanged', p.accountId);
  return agentOut(deps, p, id);
}

/** Deletes the agent: its open traces are closed, its link closed (after `uninstall` if asked). */
export async function deleteAgent(deps: AgentDeps, p: Principal, id: number, shouldUninstall: boolean): Promise<void> {
  gate(deps, p);
  await ownAgent(deps, p, id);
  const open = await deps.store.read((q) =>
    q.all<{ id: number }>('SELECT id FROM sessions WHERE sentinel_id = $1 AND account_id = $2 AND state IN (0, 1)', [id, p.accountId]),
  );
  for (const s of open) {
    await deps.runner.finish(s.id);
    await deps.store.exclusive((q) => setSessionState(q, s.id, SessionState.Archived, Date.now()));
  }
  await deps.store.transaction(async (q) => {
    await forgetSetupKey(q, id);
    await repo.deleteAgentRow(q, id);
  });
  deps.links.disconnect(id, { uninstall: shouldUninstall, reason: 'This agent was deleted.' });
  if (open.length) deps.events.emit('SessionsChanged', p.accountId);
  deps.events.emit('AgentsChanged', p.accountId);
}

/** forceReconnect's answer for an agent whose program was never set up (PENDING). */
export const AgentNotInstalledText = 'The agent has not been installed yet, so there is nothing to reconnect: install it on its machine with the Installer or Auto Setup link first.';

export async function forceReconnect(deps: AgentDeps, p: Principal, id: number): Promise<void> {
  gate(deps, p);
  const a = await ownAgent(deps, p, id);
  // PENDING (never set up): say so, not "not connected" as if it had dropped (issue 40 item 8);
  // the console does not offer Reconnect there (web/src/agents/logic/agentActions.ts).
  if (a.credentialHash === null) throw new HttpError(409, AgentNotInstalledText);
  if (!deps.links.isOnline(id)) throw new HttpError(409, 'The agent is not connected, so it cannot be told to reconnect.');
  deps.links.disconnect(id, { reason: 'Reconnect requested from the console.' });
}

/**
 * The server address agents are given: the public URL when one is in force (HOPWATCH_PUBLIC_URL,
 * else Settings > General), else the address the caller used, else this host's name (the hub).
 */
export async function agentServerAddress(
  deps: Pick<AgentDeps, 'store' | 'config'>,
  serverUrl: string | undefined,
): Promise<[string, AgentDownloadLink['ServerSource']]> {
  const publicUrl = await deps.store.read((q) => publicUrlInForce(q, deps.config));
  if (publicUrl) return [publicUrl, 'PublicUrl'];
  if (serverUrl) return [serverUrl.replace(/\/+$/, ''), 'Browser'];
  return [`${deps.config.tls ? 'https' : 'http'}://${hostname()}:${deps.config.port}`, 'HostName'];
}

/**
 * The Installer link and the Auto Setup link (issue 40 item 3). The agent's setup key is kept
 * (sealed) and shown again on every call, so Installer or Download Agent no longer break a link
 * copied before; a new key is made when the kept one was used (or cannot be unsealed: the key
 * file changed), and when `renew` asks for one: the old link is then refused with
 * SetupLinkReplacedText and the answer says so (Replaced).
 *
 * The server address is the public URL when one is in force (HOPWATCH_PUBLIC_URL, else
 * Settings > General), else the address the browser used (REST), else this host's name (the
 * hub); Warning says when an agent elsewhere could not reach it (issue 40 item 4).
 */
export async function downloadLink(deps: AgentDeps, p: Principal, id: number, serverUrl: string | undefined, renew = false): Promise<AgentDownloadLink> {
  gate(deps, p);
  await ownAgent(deps, p, id);
  const [server, source] = await agentServerAddress(deps, serverUrl);
  const { key, replaced } = await deps.store.transaction(async (q) => {
    const a = await repo.findAgent(q, id);
    if (!a) throw notFound(`Agent ${id} not found.`);
    const kept = await findSetupKey(q, id);
    const open = kept ? deps.seal.open(kept.sealedKey) : '';
    // The kept key while it is still the agent's unused one (enrol_hash is its check).
    if (!renew && open && keyMatches(open, a.enrolHash)) return { key: open, replaced: false };
    const key = newKey();
    // Renewing a key not used yet: its hash is kept to tell a setup with the old link why it is refused.
    const replacedHash = renew && a.enrolHash ? a.enrolHash : null;
    await repo.setEnrolHash(q, id, hashKey(key));
    await keepSetupKey(q, { agentId: id, sealedKey: deps.seal.seal(key), replacedHash, createdAt: Date.now() });
    return { key, replaced: replacedHash !== null };
  });
  return {
    DownloadUrl: server + InstallerPath,
    SetupLink: formatSetupLink({ id, key, server }),
    Server: server,
    ServerSource: source,
    Warning: unreachableAddress(server)?.text ?? '',
    Replaced: replaced,
  };
}

/** The agent program's first contact: its setup key for a credential of its own. */
export async function enrolAgent(deps: Pick<AgentDeps, 'store' | 'settings'>, args: { AgentId: number; Key: string }): Promise<{ Credential: string }> {
  if (!deps.settings.enabled) throw forbidden('Remote agents are turned off on this server.');
  const credential = newKey();
  // Checked and spent in one transaction: two setups with one key cannot both get a credential.
  await deps.store.transaction(async (q) => {
    const a = await repo.findAgent(q, args.AgentId);
    const kept = a && (await findSetupKey(q, a.id));
    if (kept && keyMatches(args.Key, kept.replacedHash)) throw unauthorized(SetupLinkReplacedText);
    if (!a || !keyMatches(args.Key, a.enrolHash)) throw unauthorized(SetupKeySpentText);
    await repo.enrol(q, a.id, hashKey(credential));
    await forgetSetupKey(q, a.id);
  });
  return { Credential: credential };
}

/**
 * The one check of every trace start (newtarget, resume, reset, Sidekick; REST and hub): the
 * agent must be the Local Machine where the account may trace from it (hosted customers only
 * when granted: server/accounts/local-machine.ts) or an agent of the caller's account, within
 * the entitlement.
 */
export async function checkAgentForTrace(
  deps: Pick<AgentDeps, 'store' | 'settings'> & { config: Pick<Config, 'deployment'> },
  p: Principal,
  agentId: number,
  /** Active traces this start replaces (a Reset closes the old one after): not counted. */
  freed = 0,
): Promise<void> {
  if (agentId === LocalMachineAgentId) {
    // Self-hosted and the provider's accounts: uncounted, as always.
    if (!(await deps.store.read((q) => requireLocalMachine(q, deps.config.deployment, p.accountId))).counted) return;
  } else {
    if (!deps.settings.enabled) throw notFound(`Agent ${agentId} not found.`);
    const a = await deps.store.read((q) => repo.findAgent(q, agentId));
    if (!a || a.accountId !== p.accountId) throw notFound(`Agent ${agentId} not found.`);
  }
  // The account's entitlement (set by staff, server/accounts) or the appliance's default.
  const [active, entitled] = await countedTraces(deps, p.accountId);
  // 409, not 403: a 403 means a lost session to the console (spec 1 section 4), which would
  // sign the user out; the Error text is spec 1's capacity info, worded for the flavour.
  if (active - freed >= entitled) throw conflict(capacityFullText(entitled, deps.config.deployment !== DeploymentMode.Cloud));
}

/** The open targets of an agent (the Local Machine's too). */
export async function agentTargets(deps: AgentDeps, p: Principal, id: number): Promise<AgentTarget[]> {
  gate(deps, p);
  if (id !== LocalMachineAgentId) await ownAgent(deps, p, id);
  return deps.store.read((q) => repo.openSessionsOf(q, p.accountId, id));
}
