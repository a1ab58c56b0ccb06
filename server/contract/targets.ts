// Target rows, details, column definitions and graph rows (spec 2 section 3).
import type { HopDetails } from './hop-details.js';
export type { HopDetails, HopHostDetails, MplsLabelDetails } from './hop-details.js';

/** Trace interval choices in ms (spec 2 section 9); default 2500. */
export const TraceIntervalChoicesMs = [1000, 2500, 5000, 10000, 15000, 30000, 60000] as const;
export const DefaultTraceIntervalMs = 2500;
export const MinTraceIntervalMs = 100;
export const MaxTraceIntervalMs = 24 * 3600 * 1000;

export const GraphColumnKind = [
  'Hop', 'ErrCount', 'PacketLoss', 'IPAddress', 'DNSName', 'Avg', 'Min', 'Max', 'Cur', 'Graph', 'User', 'Agent', 'RouteLength',
  // HopDetails columns (issue 16), hidden by default.
  'Hosts', 'MPLS', 'AS', 'Country', 'NAT', 'DSCP',
] as const;
export type GraphColumnKind = (typeof GraphColumnKind)[number];

export const ColumnGridType = { None: 0, SingleTarget: 1, Summary: 2 } as const;
export const ColumnAlign = { Left: 0, Center: 1, Right: 2 } as const;
export const TargetListType = ['Target', 'Summary', 'Agent', 'LiveShare'] as const;
export type TargetListType = (typeof TargetListType)[number];

export interface ColumnDef {
  Name: GraphColumnKind;
  Type: string;
  Hint: string;
  Caption: string;
  MenuCaption: string;
  GridType: number;
  Align: number;
  CanChangeVisible: boolean;
  SizeAbility: boolean;
  Visible: boolean;
  Width: number;
}

/** One grid row: a hop of a target ({sessionId}_h_{hop}), or the header row (_h_0). */
export interface TargetRow {
  UniqueID: string;
  DNSName: string;
  IP: string;
  HopNum: number;
  /** The hop's hosts and what they reported (server/contract/hop-details.ts); null when it never answered in the range. */
  HopDetails: HopDetails | null;
  Columns: Record<string, string>;
  IsRunning: boolean;
  Editable: boolean;
  HasAlert: boolean;
  GoodCount: number;
  TotalCount: number;
  Average: number | null;
  Minimum: number | null;
  Maximum: number | null;
  /** Latest latency or special code. */
  Current: number | null;
  /** Packet loss percent. */
  PL: number | null;
  /** Seconds. */
  TraceInterval: number;
  SentinelId: string;
  HubSentinelID: number;
  Start: string | null;
  End: string | null;
  TraceStart: string;
  TraceEnd: string | null;
}

export interface TargetDetails {
  ConfigurationID: number;
  SummaryName: string;
  HostCount: number;
  HubSentinelID: number;
  TargetDescription: string;
  TargetIPAddress: string;
  TargetDNSName: string;
  TargetHostID: string;
  IsRunning: boolean;
  IsNew: boolean;
  TraceInterval: number;
  FirstSample: string | null;
  LatestSample: string | null;
  Editable: boolean;
  /** The packet type the target's configuration traces with now: "ICMP", "UDP", "TCP port 443" (issue 41 item 5). */
  PacketType: string;
}

export interface GraphRowsResult {
  UniqueID: string;
  WarningSpeed: number;
  BadSpeed: number;
  GraphScale: number;
  Rows: TargetRow[];
  Details: TargetDetails | null;
}

/** One indexed request of TraceGraphRows: which target and which time range. */
export interface GraphRowsRequest {
  ID: string;
  Start?: string;
  End?: string;
}

/** Answer of /cmd/newtarget and /cmd/resettrace: the id of the (new) target. */
export interface TargetIdResult {
  ID: number;
}

/** Row ids: {sessionId}_h_{hop}; _h_0 is the header row. */
export function rowId(sessionId: number, hop: number): string {
  return `${sessionId}_h_${hop}`;
}

export function parseTargetId(id: string): { sessionId: number; hop: number | undefined } | undefined {
  const m = /^(\d{1,10})(?:_h_(\d{1,3}))?$/.exec(id.trim());
  if (!m) return undefined;
  const sessionId = Number(m[1]);
  // Ids are 32-bit in the store; a larger number is no target (and no store error).
  if (sessionId > MaxRecordId) return undefined;
  return { sessionId, hop: m[2] === undefined ? undefined : Number(m[2]) };
}

/** The largest id of any stored record (sessions, summaries, users, comments...): INTEGER columns. */
export const MaxRecordId = 2147483647;
