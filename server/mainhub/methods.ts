// /mainHub methods of spec 3 section 7.5. Each calls the same service function as its REST
// twin, so claims and validation are the same on both doors.
import { createHub, hubMethods, HubError, type Hub, type HubMethodsOf } from '../hub/index.js';
import type { Principal } from '../account/principal.js';
import type { Store } from '../store/db.js';
import type { Config } from '../config.js';
import type { DomainEventBus } from '../events.js';
import type { TargetListType } from '../contract/targets.js';
import type { MainHubEvents, MainHubMethods } from '../contract/mainhub.js';
import * as targets from '../targets/service.js';
import * as summaries from '../summaries/service.js';
import * as comments from '../comments/service.js';
import * as sessions from '../sessions/service.js';
import { commandTypeArg, pingServerIdArg, sessionIdsArg } from '../sessions/schemas.js';
import * as agents from '../agents/service.js';
import { agentIdArg, agentNameArg } from '../agents/schemas.js';
import { getDisplaySettings } from '../configurations/service.js';
import { int32 } from '../http/schemas.js';
import type { DataService } from '../data/service.js';
import { columnNameListArg, includeJitterArg, listTypeArg, periodSecondsArg, targetIdArg, timeArg } from '../data/schemas.js';
import { Claim, LicenseMode } from '../contract/account.js';
import { SignedInOrVisitor, type Access } from '../http/access.js';
import { authorizeInvocation, requireDeclaredAccess } from './access.js';
import { pathView, type PathViewDeps } from '../path-view/service.js';
import { pathViewIdArg, pathViewKindArg, pathViewTimeArg } from '../path-view/schemas.js';
import { accountGroup, agentSummaryGroup, commentsGroup, samplesGroup, summaryGroup, userGroup, wisdomGroup } from './groups.js';

export interface MainHubDeps {
  store: Store;
  config: Config;
  events: DomainEventBus;
  targets: targets.TargetDeps;
  /** The same data service instance the REST routes use. */
  data: DataService;
  /** The same agent service deps the /cmd agent routes use. */
  agents: agents.AgentDeps;
  /** The Path view's reads (the same deps its REST route has); without, the store and data service alone. */
  pathView?: PathViewDeps;
  /** The caller as they are now (their session may have ended, their rights changed). */
  currentPrincipal: (p: Principal) => Promise<Principal | null>;
}

// The hub's calls and events are declared in the contract, which the console imports too.
export type { MainHubEvents };

// Ids come as strings or numbers; both bounded (a number past 32 bits is no stored id).
const id = targetIdArg;
const int = int32;
const str = { type: 'string', maxLength: 1000 } as const;
const time = timeArg;

// Who may call each method (server/http/access.ts): checked by the hub before the handler.
const signedIn: Access = 'signedIn';
/** Read-only calls a LiveShare visitor may make too; their services keep it to its link's targets. */
const viewing: Access = SignedInOrVisitor;
const viewingSummaries: Access = { licence: LicenseMode.Professional, visitor: true };
const professional: Access = { licence: LicenseMode.Professional };
const manageSummaries: Access = { claim: Claim.SummaryManagement, licence: LicenseMode.Professional };
const manageSummaryTargets: Access = { claim: Claim.TargetManagement, licence: LicenseMode.Professional };
const manageTargets: Access = { claim: Claim.TargetManagement };
const manageAgents: Access = { claim: Claim.CloudConnectManagement };
const manageSessions: Access = { claim: Claim.SessionManagement };

/** The areas whose issues are not built yet answer this, naming the area. */
const notBuilt = (area: string) => () => {
  throw new HubError(`${area} is not available on this server yet.`);
};

export function createMainHub(deps: MainHubDeps): Hub<Principal, MainHubEvents> {
  const { method } = hubMethods<Principal, Access>();
  const summaryDeps = { store: deps.store, events: deps.events, config: deps.config };
  const commentDeps = { store: deps.store, events: deps.events };
  const sessionDeps = { store: deps.store, events: deps.events };

  // `satisfies` checks the table against the contract: every method of MainHubMethods and
  // no other, each accepting the contract's arguments and answering its result type.
  const methods = {
    CreateSummary: method({ access: manageSummaries, args: [{ name: 'name', schema: str }], handler: (ctx, name) => summaries.createSummary(summaryDeps, ctx.principal, { name }) }),
    // Remote agents ("magneto") are not offered by this server yet: only the Local Machine.
    // Remote agents ("magneto"): the same service functions as the /cmd agent routes.
    GetIsMagneto: method({ access: signedIn, args: [], handler: () => agents.isMagneto(deps.agents) }),
    GetAgents: method({ access: signedIn, args: [], handler: (ctx) => agents.getAgents(deps.agents, ctx.principal) }),
    GetCloudConnectEntitlement: method({ access: manageAgents, args: [], handler: (ctx) => agents.getEntitlement(deps.agents, ctx.principal) }),
    CreateAgent: method({ access: manageAgents, args: [{ name: 'name', schema: agentNameArg }], handler: (ctx, name) => agents.createAgent(deps.agents, ctx.principal, name) }),
    DeleteAgent: method({
      access: manageAgents,
      args: [{ name: 'id', schema: agentIdArg }, { name: 'shouldUninstall', schema: { type: 'boolean' } }],
      handler: (ctx, agentId, shouldUninstall) => agents.deleteAgent(deps.agents, ctx.principal, agentId, shouldUninstall),
    }),
    ForceReconnect: method({ access: manageAgents, args: [{ name: 'id', schema: agentIdArg }], handler: (ctx, agentId) => agents.forceReconnect(deps.agents, ctx.principal, agentId) }),
    // The hub does not know the address the browser used: HOPWATCH_PUBLIC_URL or this host's name.
    AgentDownloadLink: method({ access: manageAgents, args: [{ name: 'id', schema: agentIdArg }], handler: (ctx, agentId) => agents.downloadLink(deps.agents, ctx.principal, agentId, undefined) }),
    UpdateSentinelName: method({
      access: manageAgents,
      args: [{ name: 'id', schema: agentIdArg }, { name: 'name', schema: agentNameArg }],
      handler: (ctx, agentId, name) => agents.updateAgentName(deps.agents, ctx.principal, agentId, name),
    }),

    ColumnDefs: method({ access: viewing, args: [{ name: 'targetId', schema: id }], handler: (ctx, targetId) => deps.data.columnDefs(ctx.principal, String(targetId)) }),
    TraceGraphRows: method({
      access: viewing,
      args: [
        {
          name: 'requests',
          schema: {
            type: 'array',
            maxItems: 1000,
            items: { type: 'object', required: ['ID'], properties: { ID: id, Start: { type: ['string', 'null'], maxLength: 64 }, End: { type: ['string', 'null'], maxLength: 64 } } },
          },
        },
        { name: 'columnNames', schema: columnNameListArg },
        { name: 'listType', schema: listTypeArg },
        { name: 'id', schema: id },
      ],
      handler: (ctx, requests, columnNames, listType, uid) =>
        deps.data.traceGraphRows(ctx.principal, {
          requests: requests.map((r) => ({ ID: String(r.ID), Start: r.Start ?? undefined, End: r.End ?? undefined })),
          columnNames,
          listType: listType as (typeof TargetListType)[number],
          uniqueID: String(uid),
        }),
    }),
    ResetAndRestart: method({ access: manageTargets, args: [{ name: 'id', schema: id }], handler: (ctx, tid) => targets.resetTrace(deps.targets, ctx.principal, String(tid)) }),
    ResetAndRestartForSummary: method({
      access: manageSummaryTargets,
      args: [{ name: 'ids', schema: { type: 'array', maxItems: 1000, items: id } }, { name: 'summaryId', schema: id }],
      handler: async (ctx, ids, summaryId) => {
        await summaries.getSummary(summaryDeps, ctx.principal, { summaryId: Number(summaryId) });
        const out = [];
        for (const tid of ids) out.push((await targets.resetTrace(deps.targets, ctx.principal, String(tid))).ID);
        return out;
      },
    }),
    DisplaySettings: method({ access: viewing, args: [{ name: 'configId', schema: int }], handler: (ctx, configId) => getDisplaySettings(deps.store, ctx.principal, configId) }),
    ReresolveHost: method({ access: manageTargets, args: [{ name: 'id', schema: id }], handler: (ctx, tid) => targets.reresolveHost(deps.targets, ctx.principal, String(tid)) }),
    UpdateHostValue: method({
      access: manageTargets,
      args: [{ name: 'id', schema: id }, { name: 'name', schema: str }, { name: 'value', schema: { type: 'string', maxLength: 1000 } }],
      handler: (ctx, tid, name, value) => targets.updateHostValue(deps.targets, ctx.principal, String(tid), name, value),
    }),

    RegisterForNewSamples: method({
      access: viewing,
      args: [{ name: 'sessionId', schema: id }],
      handler: async (ctx, sid) => {
        const s = await targets.sessionFor(deps.store, ctx.principal, String(sid));
        ctx.groups.join(samplesGroup(s.id));
      },
    }),
    UnregisterForNewSamples: method({ access: viewing, args: [{ name: 'sessionId', schema: id }], handler: (ctx, sid) => ctx.groups.leave(samplesGroup(Number.parseInt(String(sid), 10))) }),
    RegisterForChangesToSummary: method({
      access: viewingSummaries,
      args: [{ name: 'summaryId', schema: id }],
      handler: async (ctx, sumId) => {
        const s = await summaries.getSummary(summaryDeps, ctx.principal, { summaryId: Number(sumId) });
        // A LiveShare visitor's pseudo-summary of an agent's targets (id 0) follows that agent.
        const agentId = ctx.principal.liveShare?.agentId;
        if (s.UniqueID === '0' && agentId !== undefined) ctx.groups.join(agentSummaryGroup(ctx.principal.accountId, agentId));
        else ctx.groups.join(summaryGroup(Number(s.UniqueID)));
      },
    }),
    UnregisterForChangesToSummary: method({
      access: viewing,
      args: [{ name: 'summaryId', schema: id }],
      handler: (ctx, sumId) => {
        const agentId = ctx.principal.liveShare?.agentId;
        ctx.groups.leave(Number(sumId) === 0 && agentId !== undefined ? agentSummaryGroup(ctx.principal.accountId, agentId) : summaryGroup(Number(sumId)));
      },
    }),
    RegisterForComments: method({
      access: viewing,
      args: [{ name: 'targetId', schema: id }],
      handler: async (ctx, tid) => {
        const s = await targets.sessionFor(deps.store, ctx.principal, String(tid));
        ctx.groups.join(commentsGroup(s.id));
      },
    }),
    UnregisterForComments: method({ access: viewing, args: [{ name: 'targetId', schema: id }], handler: (ctx, tid) => ctx.groups.leave(commentsGroup(Number.parseInt(String(tid), 10))) }),
    GetComments: method({
      access: viewing,
      args: [{ name: 'targetId', schema: id }, { name: 'start', schema: time }, { name: 'end', schema: time }],
      handler: (ctx, tid, start, end) => comments.getComments(commentDeps, ctx.principal, { sessionWebId: String(tid), startDate: start, endDate: end }),
    }),
    GetSampleCountForSession: method({
      access: viewing,
      args: [{ name: 'sessionId', schema: id }, { name: 'pingServerId', schema: int, optional: true }],
      handler: async (ctx, sid) => (await targets.sessionFor(deps.store, ctx.principal, String(sid))).sampleCount,
    }),
    PerformSessionListCommand: method({
      access: manageSessions,
      args: [{ name: 'IDs', schema: sessionIdsArg }, { name: 'PingServerId', schema: pingServerIdArg }, { name: 'Type', schema: commandTypeArg }],
      handler: (ctx, IDs, PingServerId, Type) => sessions.performSessionListCommand(sessionDeps, ctx.principal, { IDs, PingServerId, Type }),
    }),
    DataPointBuckets: method({
      access: viewing,
      args: [
        { name: 'targetId', schema: id },
        { name: 'start', schema: time },
        { name: 'end', schema: time },
        { name: 'bucketSizeSeconds', schema: periodSecondsArg },
        { name: 'includeJitter', schema: includeJitterArg },
      ],
      handler: (ctx, tid, start, end, bucketSizeSeconds, includeJitter) =>
        deps.data.dataPointBuckets(ctx.principal, { targetId: String(tid), startTime: start, endTime: end, periodSeconds: bucketSizeSeconds, includeJitter }),
    }),
    RegisterForWisdom: method({
      access: signedIn,
      args: [{ name: 'targetId', schema: id }],
      handler: async (ctx, tid) => {
        const s = await targets.sessionFor(deps.store, ctx.principal, String(tid));
        ctx.groups.join(wisdomGroup(s.id));
      },
    }),
    UnregisterForWisdom: method({ access: signedIn, args: [{ name: 'targetId', schema: id }], handler: (ctx, tid) => ctx.groups.leave(wisdomGroup(Number.parseInt(String(tid), 10))) }),
    PathView: method({
      access: viewing,
      args: [
        { name: 'kind', schema: pathViewKindArg },
        { name: 'id', schema: pathViewIdArg },
        { name: 'start', schema: pathViewTimeArg },
        { name: 'end', schema: pathViewTimeArg },
      ],
      handler: (ctx, kind, pid, start, end) => pathView(deps.pathView ?? { store: deps.store, data: deps.data }, ctx.principal, { kind, id: String(pid), start, end }),
    }),
  } satisfies HubMethodsOf<Principal, MainHubMethods>;
  requireDeclaredAccess(methods);

  return createHub<Principal, MainHubEvents>({
    currentPrincipal: deps.currentPrincipal,
    authorize: authorizeInvocation(deps.config),
    onConnected: (ctx) => {
      // A LiveShare visitor hears only what it registers for (its link's targets and summary).
      if (ctx.principal.liveShare) return;
      ctx.groups.join(accountGroup(ctx.principal.accountId));
      ctx.groups.join(userGroup(ctx.principal.userId));
    },
    methods,
  });
}
