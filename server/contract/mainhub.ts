// The /mainHub calls and events of spec 3 section 7.5, typed once for both sides. The
// server's method table must satisfy MainHubMethods and its sends are typed by MainHubEvents
// (server/mainhub/methods.ts), and the console's invoke and subscribe take their argument
// and answer types from here (web/src/hub/connection.ts): a change on one side that the
// other does not follow fails to compile.
import type { Agent, AgentDownloadLink, AgentItem, Entitlement } from './agents.js';
import type { DataPointBuckets } from './data.js';
import type { PathView, PathViewKind } from './path-view.js';
import type { SessionListCommandResult, SessionListCommandType } from './sessions.js';
import type { Comment, DisplaySettings, Summary } from './summaries.js';
import type { ColumnDef, GraphRowsResult, TargetIdResult, TargetListType } from './targets.js';

/** A target, row or summary id: text ("12", "12_h_3") or a number. */
export type HubId = string | number;
/** ISO 8601 text or epoch milliseconds. */
export type HubTime = string | number;

/** What one hub method takes (positional arguments) and answers. */
export interface HubCall<A extends unknown[], R> {
  args: A;
  result: R;
}

/**
 * The areas not built yet answer every call with an error naming the area: their answer
 * type is `never` until the area is built and says what it answers.
 */
type NotBuilt<A extends unknown[]> = HubCall<A, never>;

export type MainHubMethods = {
  CreateSummary: HubCall<[name: string], Summary>;
  GetIsMagneto: HubCall<[], boolean>;
  /** The Local Machine (self-hosted) and the account's remote agents, with their details. */
  GetAgents: HubCall<[], (AgentItem & Partial<Agent>)[]>;
  GetCloudConnectEntitlement: HubCall<[], Entitlement>;
  /** Takes the name URL-encoded (spec 1 section 5); answers the new PENDING agent. */
  CreateAgent: HubCall<[name: string], Agent>;
  DeleteAgent: HubCall<[id: number, shouldUninstall: boolean], void>;
  ForceReconnect: HubCall<[id: number], void>;
  AgentDownloadLink: HubCall<[id: number], AgentDownloadLink>;
  UpdateSentinelName: HubCall<[id: number, name: string], Agent>;

  ColumnDefs: HubCall<[targetId: HubId], ColumnDef[]>;
  TraceGraphRows: HubCall<
    [requests: { ID: HubId; Start?: string | null; End?: string | null }[], columnNames: string[], listType: TargetListType, id: HubId],
    GraphRowsResult
  >;
  ResetAndRestart: HubCall<[id: HubId], TargetIdResult>;
  /** Answers the new target ids, in the order of `ids`. */
  ResetAndRestartForSummary: HubCall<[ids: HubId[], summaryId: HubId], number[]>;
  DisplaySettings: HubCall<[configId: number], DisplaySettings>;
  /** Answers the address now in use. */
  ReresolveHost: HubCall<[id: HubId], string>;
  UpdateHostValue: HubCall<[id: HubId, name: string, value: string], void>;

  RegisterForNewSamples: HubCall<[sessionId: HubId], void>;
  UnregisterForNewSamples: HubCall<[sessionId: HubId], void>;
  RegisterForChangesToSummary: HubCall<[summaryId: HubId], void>;
  UnregisterForChangesToSummary: HubCall<[summaryId: HubId], void>;
  RegisterForComments: HubCall<[targetId: HubId], void>;
  UnregisterForComments: HubCall<[targetId: HubId], void>;
  GetComments: HubCall<[targetId: HubId, start: HubTime, end: HubTime], Comment[]>;
  GetSampleCountForSession: HubCall<[sessionId: HubId, pingServerId?: number], number>;
  /** Type: OPEN 0, DELETE 1, EXPORT 2; PingServerId -1 (the Local Machine). */
  PerformSessionListCommand: HubCall<[IDs: number[], PingServerId: number, Type: SessionListCommandType], SessionListCommandResult>;
  DataPointBuckets: HubCall<[targetId: HubId, start: HubTime, end: HubTime, bucketSizeSeconds: number, includeJitter: boolean], DataPointBuckets>;
  /** WisdomTestProgressUpdated events of the target's Insights runs. */
  RegisterForWisdom: HubCall<[targetId: HubId], void>;
  UnregisterForWisdom: HubCall<[targetId: HubId], void>;
  /** The Path view of a target or summary over [start, end) (issue 44; GET /api/path/PathView). */
  PathView: HubCall<[kind: PathViewKind, id: HubId, start: HubTime, end: HubTime], PathView>;
};

export type MainHubMethodName = keyof MainHubMethods;
export type MainHubArgs<M extends MainHubMethodName> = MainHubMethods[M]['args'];
export type MainHubResult<M extends MainHubMethodName> = MainHubMethods[M]['result'];

/** Event name -> the arguments the server pushes with it. */
export type MainHubEvents = {
  SummaryListChanged: [];
  UserUpdated: [];
  SettingsChanged: [];
  CloudConnectAccountUpdated: [];
  /** Row id (`{sessionId}_h_{hop}`) or target id, and the newest sample's ISO time. */
  HostUpdated: [id: string, time: string];
  SummaryHostUpdated: [summaryId: string, hostId: string, time: string];
  RouteChanged: [id: string];
  SummaryChanged: [id: string];
  SessionsChanged: [];
  CommentChanged: [targetId: string, time: string, commentId: number];
  WisdomTestProgressUpdated: [progress: { TestTitle: string }];
};

export type MainHubEventName = keyof MainHubEvents;

/**
 * The group joins a client keeps while it watches something, with the call that leaves
 * each (the server forgets a connection's groups when it closes, so clients join again).
 */
export const MainHubRegistrations = {
  RegisterForNewSamples: 'UnregisterForNewSamples',
  RegisterForChangesToSummary: 'UnregisterForChangesToSummary',
  RegisterForComments: 'UnregisterForComments',
  RegisterForWisdom: 'UnregisterForWisdom',
} as const satisfies Partial<Record<MainHubMethodName, MainHubMethodName>>;
export type MainHubRegistration = keyof typeof MainHubRegistrations;

// The names at run time (the types above are erased), for tests that compare the hub the
// server builds with this contract. `satisfies Record<...>` makes each list complete and exact.
const methodNames = {
  CreateSummary: 1, GetIsMagneto: 1, GetAgents: 1, GetCloudConnectEntitlement: 1, CreateAgent: 1, DeleteAgent: 1,
  ForceReconnect: 1, AgentDownloadLink: 1, UpdateSentinelName: 1, ColumnDefs: 1, TraceGraphRows: 1, ResetAndRestart: 1,
  ResetAndRestartForSummary: 1, DisplaySettings: 1, ReresolveHost: 1, UpdateHostValue: 1, RegisterForNewSamples: 1,
  UnregisterForNewSamples: 1, RegisterForChangesToSummary: 1, UnregisterForChangesToSummary: 1, RegisterForComments: 1,
  UnregisterForComments: 1, GetComments: 1, GetSampleCountForSession: 1, PerformSessionListCommand: 1, DataPointBuckets: 1,
  RegisterForWisdom: 1, UnregisterForWisdom: 1, PathView: 1,
} as const satisfies Record<MainHubMethodName, 1>;
const eventNames = {
  SummaryListChanged: 1, UserUpdated: 1, SettingsChanged: 1, CloudConnectAccountUpdated: 1, HostUpdated: 1, SummaryHostUpdated: 1,
  RouteChanged: 1, SummaryChanged: 1, SessionsChanged: 1, CommentChanged: 1, WisdomTestProgressUpdated: 1,
} as const satisfies Record<MainHubEventName, 1>;

export const MainHubMethodNames = Object.keys(methodNames) as MainHubMethodName[];
export const MainHubEventNames = Object.keys(eventNames) as MainHubEventName[];
