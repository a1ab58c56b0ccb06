// Target (trace) operations of spec 2 sections 4 and 7: one function per operation, called
// by the /cmd routes and the hub alike.
import { Claim } from '../contract/account.js';
import { LocalMachineAgentId, SessionState } from '../contract/sessions.js';
import {
  DefaultTraceIntervalMs,
  MaxTraceIntervalMs,
  MinTraceIntervalMs,
  parseTargetId,
  type TargetIdResult,
} from '../contract/targets.js';
import { requireClaim } from '../account/authenticate.js';
import type { Principal } from '../account/principal.js';
import { outsideLiveShare } from '../liveshare/scope.js';
import type { DomainEventBus } from '../events.js';
import { checkAgentForTrace } from '../agents/service.js';
import type { Config } from '../config.js';
import { agentSettings } from '../agents/settings.js';
import { badRequest, conflict, HttpError, notFound } from '../http/errors.js';
import type { Store } from '../store/db.js';
import { checkProbePermission, EngineError } from '../trace-engine.js';
import * as repo from './repository.js';
import { resolveTarget } from './target-text.js';
import type { TraceRunner } from './trace-runner.js';
import { generalSettings } from '../settings/service.js';
import { checkRemoteServer, RemoteServerError } from '../remote-server/client.js';

export interface TargetDeps {
  store: Store;
  events: DomainEventBus;
  runner: TraceRunner;
  /** The flavour: who may trace from the Local Machine, and the capacity refusal's wording. */
  config: Pick<Config, 'deployment'>;
  /** Records a started target in the user's trace history. */
  recordHistory?: (p: Principal, target: string) => Promise<void>;
}

export interface NewTargetArgs {
  target: string;
  configId?: number;
  traceIntervalSeconds?: number;
  agentId?: number;
}

function intervalMs(seconds: number | undefined): number {
  if (seconds === undefined) return DefaultTraceIntervalMs;
  const ms = Math.round(seconds * 1000);
  if (!(ms >= MinTraceIntervalMs && ms <= MaxTraceIntervalMs)) {
    throw badRequest(`The trace interval must be between ${MinTraceIntervalMs / 1000} s and ${MaxTraceIntervalMs / 3600_000} h.`);
  }
  return ms;
}

/** Reads of a session under way, by store and ID. */
const sessionReads = new WeakMap<Store, Map<number, Promise<repo.SessionRecord | undefined>>>();

/**
 * A session's row, a committed read (a data call on a live target does not queue behind its
 * ingest flushes). Callers asking while a read of the same session is under way share it:
 * thousands of consoles registering for one target at once (a restart's reconnect storm) are
 * one read, not thousands queued on the store's read connections (docs/hub.md, "5,000
 * consoles"). Only a found row is shared: a caller that joined a read which found nothing
 * reads again, so a target created meanwhile is not refused from a read begun before it.
 */
async function readSession(store: Store, id: number): Promise<repo.SessionRecord | undefined> {
  let reads = sessionReads.get(store);
  if (!reads) sessionReads.set(store, (reads = new Map()));
  const underWay = reads.get(id);
  if (underWay) {
    const shared = await underWay;
    if (shared) return shared;
  }
  // A request's read (sessionFor's callers): refused with 503 under overload, not queued for ever.
  const read = store.read((q) => repo.findSession(q, id), { priority: 'bulk' });
  if (!underWay) {
    reads.set(id, read);
    const done = () => {
      if (reads.get(id) === read) reads.delete(id);
    };
    read.then(done, done);
  }
  return read;
}

/** The session behind a target id or row id, in the caller's account. */
export async function sessionFor(store: Store, p: Principal, id: string | number): Promise<repo.SessionRecord> {
  const parsed = parseTargetId(String(id));
  if (!parsed) throw badRequest(`"${id}" is not a target id.`);
  const s = await readSession(store, parsed.sessionId);
  if (!s || s.accountId !== p.accountId || outsideLiveShare(p, s.id)) throw notFound(`Target ${parsed.sessionId} not found`);
  return s;
}

/** The configuration, one of the account's (configurations are per account); without one, the account's first. */
async function ensureConfiguration(store: Store, p: Principal, configId: number | undefined): Promise<number> {
  if (configId !== undefined && !Number.isSafeInteger(configId)) throw badRequest(`"${configId}" is not a configuration id.`);
  const row = await store.one<{ id: number }>(
    'SELECT id FROM configurations WHERE account_id = $1 AND ($2::INTEGER IS NULL OR id = $2) ORDER BY position, id LIMIT 1',
    [p.accountId, configId ?? null],
  );
  if (!row) throw notFound(configId === undefined ? 'The account has no configuration: open Settings once to create the Default one.' : `Configuration ${configId} not found.`);
  return Number(row.id);
}

async function ensureCanProbe(): Promise<void> {
  try {
    await checkProbePermission();
  } catch (err) {
    if (err instanceof EngineError) throw new HttpError(503, err.message);
    throw err;
  }
}

/**
 * The trace can run: another Hopwatch takes it (remote-server packet type) and accepts this
 * server's sign-in (502 with the reason otherwise), or this server may probe (Local Machine).
 */
async function ensureCanTrace(deps: TargetDeps, configId: number, agentId: number): Promise<void> {
  const remote = await deps.runner.remoteAccess(configId);
  if (remote) {
    if (!remote.address || !remote.userName || !remote.password) {
      throw conflict("This target's configuration traces via a remote server, but its address, user name or password is not set: set them in Settings, the configuration's Engine page.");
    }
    try {
      await checkRemoteServer(remote);
    } catch (err) {
      if (err instanceof RemoteServerError) throw new HttpError(502, `This target's configuration traces via a remote server, and ${err.message}`);
      throw err;
    }
  } else if (agentId === LocalMachineAgentId) await ensureCanProbe();
}

/** `replacing`: an active trace this start replaces (Reset): it does not count against the entitlement. */
export async function newTarget(deps: TargetDeps, p: Principal, args: NewTargetArgs, replacing?: repo.SessionRecord): Promise<TargetIdResult> {
  requireClaim(p, Claim.TargetManagement);
  const agentId = args.agentId ?? LocalMachineAgentId;
  // The Local Machine where the account may trace from it, or a remote agent of the account
  // (server/agents), within the entitlement: the one check of every trace start.
  const freed = replacing && replacing.state === SessionState.Active && replacing.sentinelId === agentId ? 1 : 0;
  await checkAgentForTrace({ store: deps.store, settings: agentSettings(), config: deps.config }, p, agentId, freed);
  const configId = await ensureConfiguration(deps.store, p, args.configId);
  const traceIntervalMs = intervalMs(args.traceIntervalSeconds);
  const { name, ip } = await resolveTarget(args.target);
  await ensureCanTrace(deps, configId, agentId);
  const general = await deps.store.read((q) => generalSettings(q, p.accountId));
  const id = await deps.store.exclusive((q) =>
    repo.insertSession(q, {
      accountId: p.accountId,
      originalTarget: args.target.trim(),
      targetName: name,
      targetIp: ip,
      state: SessionState.Active,
      // Settings > General "Dynamic DNS update mode": a DNS-name target follows its name (Auto) or keeps the first address (Off).
      dynamicDnsMode: name && general.DynamicDnsMode === 1 ? 1 : 0,
      sentinelId: agentId,
      configurationId: configId,
      traceIntervalMs,
      finalHopOnly: false,
      createdBy: p.userId,
      startTime: Date.now(),
    }),
  );
  const session = (await deps.store.read((q) => repo.findSession(q, id)))!;
  await deps.runner.run(session);
  await deps.recordHistory?.(p, args.target.trim());
  deps.events.emit('SessionsChanged', p.accountId);
  return { ID: id };
}

function requireOpen(s: repo.SessionRecord): void {
  if (s.state === SessionState.Archived || s.state === SessionState.WillDelete) throw conflict(`Target ${s.id} is closed.`);
}

export async function stopTrace(deps: TargetDeps, p: Principal, id: string): Promise<void> {
  requireClaim(p, Claim.TargetManagement);
  const s = await sessionFor(deps.store, p, id);
  requireOpen(s);
  if (s.state === SessionState.Pause) return;
  deps.runner.agent.pause(s.id);
  await deps.store.exclusive((q) => repo.setSessionState(q, s.id, SessionState.Pause, null));
  deps.events.emit('SessionsChanged', p.accountId);
}

export async function resumeTrace(deps: TargetDeps, p: Principal, id: string): Promise<void> {
  requireClaim(p, Claim.TargetManagement);
  const s = await sessionFor(deps.store, p, id);
  requireOpen(s);
  if (s.state === SessionState.Active && deps.runner.agent.has(s.id)) return;
  // A paused remote trace counts again once resumed: within the account's entitlement.
  if (s.state !== SessionState.Active) await checkAgentForTrace({ store: deps.store, settings: agentSettings(), config: deps.config }, p, s.sentinelId);
  await ensureCanTrace(deps, s.configurationId, s.sentinelId);
  if (deps.runner.agent.has(s.id)) deps.runner.agent.resume(s.id);
  else await deps.runner.run(s);
  await deps.store.exclusive((q) => repo.setSessionState(q, s.id, SessionState.Active, null));
  deps.events.emit('SessionsChanged', p.accountId);
}

/** Closes the session and starts a new one to the same target with the same settings. */
export async function resetTrace(deps: TargetDeps, p: Principal, id: string): Promise<TargetIdResult> {
  requireClaim(p, Claim.TargetManagement);
  const s = await sessionFor(deps.store, p, id);
  const next = await newTarget(deps, p, {
    target: s.originalTarget,
    configId: s.configurationId,
    traceIntervalSeconds: s.traceIntervalMs / 1000,
    agentId: s.sentinelId,
  }, s);
  if (s.state !== SessionState.Archived) await closeSession(deps, s);
  await deps.store.run('UPDATE sessions SET final_hop_only = $2 WHERE id = $1', [next.ID, s.finalHopOnly]);
  if (s.finalHopOnly) deps.runner.agent.setFinalHopOnly(next.ID, true);
  await deps.store.run(
    `INSERT INTO summary_members (summary_id, session_id, added_at)
     SELECT summary_id, $2, added_at FROM summary_members WHERE session_id = $1 ON CONFLICT DO NOTHING`,
    [s.id, next.ID],
  );
  // The new session's summaries changed after newTarget said so: whoever caches them reads again.
  deps.events.emit('SessionsChanged', p.accountId);
  return next;
}

async function closeSession(deps: TargetDeps, s: repo.SessionRecord): Promise<void> {
  await deps.runner.finish(s.id);
  await deps.store.exclusive((q) => repo.setSessionState(q, s.id, SessionState.Archived, Date.now()));
}

export async function closeTarget(deps: TargetDeps, p: Principal, id: string): Promise<void> {
  requireClaim(p, Claim.TargetManagement);
  const s = await sessionFor(deps.store, p, id);
  if (s.state === SessionState.Archived) return;
  await closeSession(deps, s);
  deps.events.emit('SessionsChanged', p.accountId);
}

/** Toggles final-hop-only on each target. */
export async function finalHop(deps: TargetDeps, p: Principal, ids: string[]): Promise<void> {
  requireClaim(p, Claim.TargetManagement);
  if (!ids.length) throw badRequest('Name at least one target in Ids.');
  const sessions = await Promise.all(ids.map((id) => sessionFor(deps.store, p, id)));
  for (const s of new Map(sessions.map((x) => [x.id, x])).values()) {
    const on = !s.finalHopOnly;
    await deps.store.exclusive((q) => repo.setSessionFinalHopOnly(q, s.id, on));
    deps.runner.agent.setFinalHopOnly(s.id, on);
  }
}

export async function updateConfigurationId(deps: TargetDeps, p: Principal, webId: string, configId: number): Promise<void> {
  requireClaim(p, Claim.TargetManagement);
  const s = await sessionFor(deps.store, p, webId);
  await ensureConfiguration(deps.store, p, configId);
  await deps.store.exclusive((q) => repo.setSessionConfiguration(q, s.id, configId));
  // A running (or paused) trace goes on with the new configuration's engine settings at once.
  if (s.configurationId !== configId && deps.runner.agent.has(s.id)) await deps.runner.run({ ...s, configurationId: configId }, s.state === SessionState.Pause);
  deps.events.emit('SessionsChanged', p.accountId);
}

export async function updateTraceInterval(deps: TargetDeps, p: Principal, webId: string, traceIntervalInMS: number): Promise<void> {
  requireClaim(p, Claim.TargetManagement);
  const s = await sessionFor(deps.store, p, webId);
  const ms = intervalMs(traceIntervalInMS / 1000);
  await deps.store.exclusive((q) => repo.setSessionInterval(q, s.id, ms));
  deps.runner.agent.setInterval(s.id, ms);
}

/** Resolves a DNS-name target again (dynamic DNS); answers the address in use. */
export async function reresolveHost(deps: TargetDeps, p: Principal, id: string): Promise<string> {
  requireClaim(p, Claim.TargetManagement);
  const s = await sessionFor(deps.store, p, id);
  if (!s.targetName) return s.targetIp;
  const address = (await deps.runner.agent.reResolve(s.id)) ?? (await resolveTarget(s.targetName)).ip;
  await deps.store.exclusive((q) => repo.setSessionTargetIp(q, s.id, address));
  return address;
}

export const HostValueNames = { Name: 'name', Notes: 'notes' } as const;

/** Edit Name / Edit Notes of a hop row. */
export async function updateHostValue(deps: TargetDeps, p: Principal, id: string, name: string, value: string): Promise<void> {
  requireClaim(p, Claim.TargetManagement);
  const field = HostValueNames[name as keyof typeof HostValueNames];
  if (!field) throw badRequest(`Host value "${name}" is not one of Name, Notes.`);
  if (value.length > 1000) throw badRequest('A host value has at most 1,000 characters.');
  const s = await sessionFor(deps.store, p, id);
  const hop = parseTargetId(id)?.hop;
  if (!hop) throw badRequest('Name a hop row ({targetId}_h_{hop}).');
  await deps.store.exclusive((q) => repo.setHostValue(q, s.id, hop, field, value, Date.now()));
  deps.events.emit('HostUpdated', p.accountId, s.id, id, Date.now());
}
