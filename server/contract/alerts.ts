// Alerts (issue 22, docs/alerts.md): the DTOs the REST calls, the alerts pages and the
// console share.
export const ConditionKinds = ['loss', 'latency', 'jitter', 'mos', 'unreachable', 'routeChanged', 'agentOffline'] as const;
export type ConditionKind = (typeof ConditionKinds)[number];
export const LatencyStatistics = ['average', 'p50', 'p90', 'p95', 'p99'] as const;
export type LatencyStatistic = (typeof LatencyStatistics)[number];

/** A condition on one hop of a target (or the target, hop 0) over its last N samples. */
export interface Condition {
  Kind: ConditionKind;
  /** 0: the target (the last hop of each round); n: hop n. */
  Hop: number;
  /** The last N samples the condition looks at (1 to 1000). */
  Samples: number;
  /** loss: at least this many of the N lost. */
  Lost?: number;
  /** latency: which statistic of the N is compared. */
  Statistic?: LatencyStatistic;
  /** latency and jitter: above this many ms. */
  ThresholdMs?: number;
  /** mos: below this score (1 to 5). */
  Mos?: number;
  /** agentOffline: the target's agent away for more than this many seconds. */
  OfflineSeconds?: number;
}

/** start/end: the condition begins or stops holding; holds/notHolds: at each evaluation. */
export const AlertEvents = ['start', 'end', 'holds', 'notHolds'] as const;
export type AlertEvent = (typeof AlertEvents)[number];
export const WebhookFormats = ['custom', 'slack', 'teams', 'discord', 'ntfy', 'gotify'] as const;
export type WebhookFormat = (typeof WebhookFormats)[number];
export const AlertsSidebarWidth = { initial: 350, min: 10, max: 650 } as const;
export const HasAlertTooltip = 'This target is being monitored by 1 or more alerts.';

export const ActionKinds = ['email', 'webhook', 'comment', 'summary', 'log', 'export'] as const;
export type ActionKind = (typeof ActionKinds)[number];

export interface EmailActionConfig {
  /** One or more addresses, separated by commas. */
  To: string;
  /** Optional; variables allowed. */
  Subject?: string;
}
export interface WebhookActionConfig {
  Method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  Url: string;
  Headers?: Record<string, string>;
  Format: WebhookFormat;
  /** JSON with variables in its strings; empty: the format's preset. */
  Template?: string;
}
export interface CommentActionConfig {
  /** Optional; variables allowed. */
  Text?: string;
}
export interface SummaryActionConfig {
  SummaryID: number;
  Mode: 'add' | 'remove';
}
export interface LogActionConfig {
  Text?: string;
}
/** Writes the target's data file (.pp2) of the condition's window into the export directory. */
export interface ExportActionConfig {
  /** At most this many samples in the file (default 100000). */
  MaxSamples?: number;
}

export type ActionConfig = EmailActionConfig | WebhookActionConfig | CommentActionConfig | SummaryActionConfig | LogActionConfig | ExportActionConfig;

export interface AlertActionDto {
  ActionID: number;
  Kind: ActionKind;
  Config: ActionConfig;
}

/** For: by default an alert starts as soon as its condition holds. */
export const DefaultForSeconds = 0;
/** Recover: by default an alert ends once its condition has not held for 2 minutes. */
export const DefaultRecoverSeconds = 120;
/** For and Recover are at most a day. */
export const MaxHysteresisSeconds = 86_400;

export interface AlertInput {
  Name: string;
  Condition: Condition;
  Events: AlertEvent[];
  MinRepeatSeconds?: number;
  /** For: the condition holds this long before the start (default 0). Conditions on samples only. */
  ForSeconds?: number;
  /** Recover: the condition has not held for this long before the end (default 120). Conditions on samples only. */
  RecoverSeconds?: number;
  Enabled?: boolean;
  Targets: number[];
  /** ActionID: the action being edited (kept with its queued notifications); new ones have none. */
  Actions: { ActionID?: number; Kind: ActionKind; Config: ActionConfig }[];
}

export interface AlertDto {
  AlertID: number;
  Name: string;
  Condition: Condition;
  ConditionText: string;
  Events: AlertEvent[];
  MinRepeatSeconds: number;
  ForSeconds: number;
  RecoverSeconds: number;
  Enabled: boolean;
  Targets: number[];
  Actions: AlertActionDto[];
  /** Targets on which the condition holds now. */
  Firing: number[];
  /** Notifications waiting for delivery (retrying). */
  Pending: number;
  /** The newest delivered notification's answer ('' none yet): an export's file, a webhook's reply. */
  LastAnswer: string;
  /** The newest delivery failure ('' when none since the last success). */
  LastError: string;
  LastErrorAt: string | null;
}

/** What "Send test" answers: whether the action worked and what the other side said. */
export interface ActionTestResult {
  Ok: boolean;
  Answer: string;
}
