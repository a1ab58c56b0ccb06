// The Sidekick calls of spec 3 section 7.2: one function per operation. Sidekick is available
// under the Sidekick licence (112) and, as /sidekick, to any non-trial Professional server
// (spec 3 section 6: "authenticated user, non-trial licence"). Its five targets are ordinary
// traces of the account, members of one summary named "Sidekick".
import { Claim, LicenseMode } from '../contract/account.js';
import { LocalMachineAgentId, SessionState } from '../contract/sessions.js';
import {
  DefaultSidekickExternalSources,
  SidekickExternalSettingNames,
  SidekickStage,
  type SidekickShareUrl,
  type SidekickState,
  type SidekickTarget,
} from '../contract/sidekick.js';
import type { Principal } from '../account/principal.js';
import type { Config } from '../config.js';
import type { DomainEventBus } from '../events.js';
import { badRequest, conflict } from '../http/errors.js';
import { checkAgentForTrace } from '../agents/service.js';
import { agentSettings } from '../agents/settings.js';
import type { DataService } from '../data/service.js';
import type { Store } from '../store/db.js';
import { closeTarget, newTarget, type TargetDeps } from '../targets/service.js';
import { getSettings } from '../settings/service.js';
import { accountSettings } from '../settings/repository.js';
import * as summaries from '../summaries/repository.js';
import * as links from '../liveshare/repository.js';
import { toLink, type CallContext } from '../liveshare/service.js';
import { LinkHistoryAction } from '../contract/liveshare.js';
import { PasswordSeal } from '../liveshare/secrets.js';
import { digestOf, newSecurePW, newShareId } from '../liveshare/secrets.js';
import { DefaultPrivateRanges, PrivateRanges } from './addresses.js';
import { discover, type DiscoverySources } from './discovery.js';
import { localMachineUse } from '../accounts/local-machine.js';
import * as repo from './repository.js';

export interface SidekickDeps {
  store: Store;
  events: DomainEventBus;
  config: Config;
  targets: TargetDeps;
  data: DataService;
}

export const SidekickUnavailable =
  'Sidekick is not available on this server: it needs the Sidekick licence or a Professional licence that is not a trial.';
export const SidekickSummaryName = 'Sidekick';
/** A hosted customer's gateway and resolver card: the server knows only its own (the provider's). */
export const SidekickAgentViewUnknown =
  "Not known in Hopwatch Cloud: the server reads only its own routing table and resolv.conf, which are the provider's, not your agent's. Trace your gateway and resolver by address.";

/** Discoveries in progress, per account: Clear All and Restart and shutdown stop them. */
const running = new Map<number, { abort: AbortController; done: Promise<void> }>();

export function sidekickAvailable(config: Config): boolean {
  const licensed = config.licenseMode === LicenseMode.Sidekick || config.licenseMode === LicenseMode.Professional;
  return licensed && config.trialExpires === undefined;
}

/**
 * Sidekick starts and closes its own five traces for any signed-in user of a licensed server
 * (the spec gates it on the licence, not on TargetManagement): the traces it starts are fixed
 * by discovery, never chosen by the caller.
 */
const asSidekick = (p: Principal): Principal => ({ ...p, claims: [...new Set([...p.claims, Claim.TargetManagement])] });

function toTarget(t: repo.SidekickTargetRow): SidekickTarget {
  const id = t.sessionId === null ? '' : String(t.sessionId);
  return {
    OriginalTarget: t.originalTarget,
    WebTargetID: id,
    Label: t.label,
    Description: t.description,
    ContentLink: id ? `/sktargets/${id}` : '',
    ExportDetails: { NotFoundReason: t.notFoundReason, DNSName: t.dnsName, IP: t.ip || t.originalTarget },
    Kind: t.kind,
  };
}

/** GET /api/Sidekick/SidekickState. */
export async function sidekickState(deps: SidekickDeps, p: Principal): Promise<SidekickState> {
  const base = { LicenseMode: deps.config.licenseMode, SidekickAvailable: sidekickAvailable(deps.config) };
  if (!base.SidekickAvailable) return { ...base, SidekickSummaryID: 0, Stage: SidekickStage.Disabled, Targets: [], StartTime: null };
  const { sk, targets, active } = await deps.store.read(async (q) => {
    const sk = await repo.findSidekick(q, p.accountId);
    const targets = sk ? await repo.targetsOf(q, p.accountId) : [];
    const ids = targets.flatMap((t) => (t.sessionId === null ? [] : [t.sessionId]));
    return { sk, targets, active: await repo.activeCount(q, ids, SessionState.Active) };
  });
  if (!sk) return { ...base, SidekickSummaryID: 0, Stage: SidekickStage.Uninitialized, Targets: [], StartTime: null };
  let stage = sk.stage;
  // A discovery cut short by a restart of the server shows what it found.
  if (stage === SidekickStage.DiscoveringTargets && !running.has(p.accountId)) stage = SidekickStage.Running;
  // Every Sidekick trace stopped or closed elsewhere (Sessions page): Sidekick is done.
  if (stage === SidekickStage.Running && active === 0) stage = SidekickStage.Done;
  return { ...base, SidekickSummaryID: sk.summaryId, Stage: stage, Targets: targets.map(toTarget), StartTime: new Date(sk.startedAt).toISOString() };
}

/** Settings > General, else the appliance's HOPWATCH_SIDEKICK_EXTERNAL_SOURCES, else the defaults. */
export function externalSources(config: Config, general: Record<string, unknown>): readonly [string, string] {
  const fallback = config.sidekick.externalSources ?? DefaultSidekickExternalSources;
  const pick = (i: 0 | 1) => {
    const v = general[SidekickExternalSettingNames[i]];
    return typeof v === 'string' && v.trim() ? v.trim() : fallback[i];
  };
  return [pick(0), pick(1)];
}

/**
 * What discovery starts from for an agent: the external sources of Settings > General and
 * where the gateway and resolver are read. Shared by StartDiscovery and the welcome screen's
 * list of destinations (plan.ts), so the list says what discovery then traces.
 */
export async function discoveryInputs(
  deps: Pick<SidekickDeps, 'store' | 'config'>,
  p: Principal,
  agentId: number,
): Promise<{ externals: readonly [string, string]; view: DiscoverySources['view'] }> {
  const externals = await deps.store.read(async (q) => externalSources(deps.config, (await accountSettings(q, p.accountId)).general));
  // The gateway and resolver come from this server's own files: a hosted customer's traces
  // run on its agent, and this server's are the provider's internal addresses (issue 39 item 15).
  const local = await deps.store.read((q) => localMachineUse(q, deps.config.deployment, p.accountId));
  const serverView = { routeTablePath: deps.config.sidekick.routeTablePath, resolvConfPath: deps.config.sidekick.resolvConfPath };
  const view = local.counted && agentId !== LocalMachineAgentId ? { unknown: SidekickAgentViewUnknown } : serverView;
  return { externals, view };
}

/** Closes the previous Sidekick's traces and summary (Clear All and Restart). */
async function clear(deps: SidekickDeps, p: Principal): Promise<void> {
  const previous = running.get(p.accountId);
  if (previous) {
    previous.abort.abort();
    await previous.done;
  }
  const { sk, targets } = await deps.store.read(async (q) => ({ sk: await repo.findSidekick(q, p.accountId), targets: await repo.targetsOf(q, p.accountId) }));
  for (const t of targets) if (t.sessionId !== null) await closeTarget(deps.targets, asSidekick(p), String(t.sessionId)).catch(() => undefined);
  if (sk) await deps.store.transaction((q) => summaries.deleteSummary(q, sk.summaryId));
}

/**
 * GET /api/Sidekick/StartDiscovery (a state-changing GET): clears any previous Sidekick, then
 * discovers and starts the five traces in the background; the console reloads the state
 * 500 ms later and sees DiscoveringTargets, then Running.
 */
export async function startDiscovery(deps: SidekickDeps, p: Principal, args: { agentId?: number } = {}): Promise<void> {
  // 409, not 403: the console treats 403 as a lost session; the state says Disabled.
  if (!sidekickAvailable(deps.config)) throw conflict(SidekickUnavailable);
  // Clear All and Restart (no agent named) keeps the agent the previous discovery used.
  const previous = await deps.store.read((q) => repo.findSidekick(q, p.accountId));
  const agentId = args.agentId ?? previous?.agentId ?? LocalMachineAgentId;
  // A query number can still be Infinity; an agent that is not one of the account's is 404
  // before anything of the previous Sidekick is cleared.
  if (!Number.isSafeInteger(agentId)) throw badRequest(`"${agentId}" is not an agent id.`);
  await checkAgentForTrace({ store: deps.store, settings: agentSettings(), config: deps.config }, asSidekick(p), agentId);
  await clear(deps, p);
  // A new appliance has no configuration until Settings is opened once: the traces need one.
  await getSettings({ store: deps.store, events: deps.events, config: deps.config }, p);
  const { externals, view } = await discoveryInputs(deps, p, agentId);
  const startedAt = Date.now();
  const summaryId = await deps.store.transaction(async (q) => {
    await summaries.ensureAllTargets(q, p.accountId);
    const id = await summaries.insertSummary(q, p.accountId, SidekickSummaryName, p.userId);
    await repo.putSidekick(q, { accountId: p.accountId, stage: SidekickStage.DiscoveringTargets, summaryId: id, agentId, startedAt });
    return id;
  });
  deps.events.emit('SummaryListChanged', p.accountId);
  const abort = new AbortController();
  const sk = asSidekick(p);
  const done = discover({
    view,
    ranges: new PrivateRanges(deps.config.sidekick.privateRanges ?? DefaultPrivateRanges),
    externals,
    edgeWaitMs: deps.config.sidekick.edgeWaitMs,
    signal: abort.signal,
    startTrace: async (target) => (await newTarget(deps.targets, sk, { target, agentId })).ID,
    routeOf: async (sessionId) => {
      const id = String(sessionId);
      const r = await deps.data.traceGraphRows(sk, { listType: 'Target', uniqueID: id, requests: [{ ID: id }], columnNames: [] });
      const target = r.Details?.TargetIPAddress ?? '';
      return r.Rows.filter((row) => row.HopNum >= 1 && row.IP && row.IP !== target).map((row) => ({ hop: row.HopNum, ip: row.IP }));
    },
    found: async (t) => {
      await deps.store.transaction(async (q) => {
        await repo.putTarget(q, p.accountId, t);
        if (t.sessionId !== null) await summaries.addMember(q, summaryId, t.sessionId);
      });
      deps.events.emit('SummaryChanged', p.accountId, summaryId);
    },
  })
    .catch(() => undefined)
    .then(async () => {
      if (!abort.signal.aborted) await deps.store.transaction((q) => repo.setStage(q, p.accountId, SidekickStage.Running));
    })
    .catch(() => undefined)
    .finally(() => {
      if (running.get(p.accountId)?.abort === abort) running.delete(p.accountId);
      deps.events.emit('SummaryListChanged', p.accountId);
    });
  running.set(p.accountId, { abort, done });
}

/** Stops discoveries in progress (server shutdown). */
export async function stopDiscoveries(): Promise<void> {
  const all = [...running.values()];
  for (const r of all) r.abort.abort();
  await Promise.all(all.map((r) => r.done));
}

/**
 * GET /api/Sidekick/GetShareUrlsForSidekickTargets: a LiveShare link of the Sidekick summary
 * for each traced target (its TargetID), made once and then reused while it is active.
 */
export async function shareUrls(deps: SidekickDeps, p: Principal, ctx: CallContext): Promise<SidekickShareUrl[]> {
  if (!sidekickAvailable(deps.config)) throw conflict(SidekickUnavailable);
  const seal = PasswordSeal.forStore(deps.store);
  const lsDeps = { store: deps.store, events: deps.events, config: deps.config, seal };
  const state = await sidekickState(deps, p);
  if (state.Stage !== SidekickStage.Running && state.Stage !== SidekickStage.Done && state.Stage !== SidekickStage.DiscoveringTargets) {
    throw conflict('Sidekick has no targets yet: press Get Started first.');
  }
  const summaryRef = `SUM-${state.SidekickSummaryID}`;
  const now = Date.now();
  const out: SidekickShareUrl[] = [];
  for (const target of state.Targets.filter((t) => t.WebTargetID)) {
    const link = await deps.store.transaction(async (q) => {
      const existing = (await links.listLinks(q, p.accountId, summaryRef)).find(
        (l) => l.targetRef === target.WebTargetID && l.active && (l.expiresAt === null || l.expiresAt > now),
      );
      if (existing) return existing;
      const password = newSecurePW();
      const record: Omit<links.LinkRecord, 'id'> = {
        shareId: newShareId(),
        pwDigest: digestOf(password),
        pwSealed: seal.seal(password),
        description: `Sidekick: ${target.Label}`,
        notes: `${target.Label} ${target.OriginalTarget}, exported from Sidekick.`,
        active: true,
        createdAt: now,
        expiresAt: null,
        summaryRef,
        targetRef: target.WebTargetID,
        accountId: p.accountId,
        createdBy: p.username,
      };
      const id = await links.insertLink(q, record);
      await links.addHistory(q, { linkId: id, shareId: record.shareId, accountId: p.accountId, at: now, address: ctx.address, action: LinkHistoryAction.Created, logText: `Created by Sidekick export for ${p.username}.` });
      return { ...record, id, created: true };
    });
    if ('created' in link) deps.events.emit('LiveShareChanged', p.accountId, link.id, true);
    out.push({ TargetDefinition: target, ShareUrl: toLink(lsDeps, link, ctx.serverUrl).LiveShareURL });
  }
  return out;
}
