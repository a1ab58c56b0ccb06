// The Hopwatch data file (.pp2), version 1: one Parquet file of hop samples with the target,
// its hosts, configuration, comments and route changes as JSON in the file's key-value
// metadata. Described for readers in docs/data-file.md; this module is its one definition.
import { LatencyCode } from '../../engine/latency-codes.js';

export const DataFileFormat = 'hopwatch-data-file';
/** Raise when a reader of the old version would misread a new file; say what changed in docs/data-file.md. */
export const DataFileVersion = 1;
export const DataFileExtension = '.pp2';

/** The metadata keys; each value is JSON text written in ASCII (other characters as \u escapes). */
export const MetaKey = {
  Format: 'hopwatch.format',
  Version: 'hopwatch.version',
  Target: 'hopwatch.target',
  Range: 'hopwatch.range',
  Configuration: 'hopwatch.configuration',
  Hosts: 'hopwatch.hosts',
  Comments: 'hopwatch.comments',
  RouteChanges: 'hopwatch.route_changes',
} as const;

/** The sample columns, in order, with their Parquet (DuckDB) types. */
export const SampleColumns = [
  ['time_ms', 'DOUBLE'],
  ['hop', 'SMALLINT'],
  ['latency_ms', 'DOUBLE'],
] as const;

/** Latency codes a file may hold besides measured milliseconds (engine/latency-codes.ts). */
export const FileLatencyCodes = [LatencyCode.Timeout, LatencyCode.NotParticipating, LatencyCode.StopStart] as const;

/** More hop samples than an import takes (30 hops at 1 s for about 38 days). */
export const MaxImportSamples = 100_000_000;

export interface FileTarget {
  OriginalTarget: string;
  TargetName: string;
  TargetIP: string;
  Description: string;
  TraceIntervalMs: number;
  DynamicDnsMode: number;
  FinalHopOnly: boolean;
  /** Epoch ms. */
  StartTime: number;
  EndTime: number | null;
  AgentName: string;
  /** The session id on the server that wrote the file (information only). */
  SourceSessionId: number;
}
export interface FileRange {
  /** Epoch ms of the first and last sample in the file (null when it holds none). */
  Begin: number | null;
  End: number | null;
  Samples: number;
  /** MaxSamples left out older samples of the requested range. */
  Cut: boolean;
}
export interface FileConfiguration {
  Name: string;
  Warn: number;
  Bad: number;
  Scale: number;
}
export interface FileHost {
  Hop: number;
  Address: string;
  DnsName: string;
  Name: string;
  Notes: string;
}
export interface FileComment {
  When: number;
  Text: string;
  Type: number;
  ExtraAttributesJson: string;
}
export interface FileRouteChange {
  Time: number;
  Hop: number;
  OldAddress: string;
  NewAddress: string;
}
export interface FileMetadata {
  target: FileTarget;
  range: FileRange;
  configuration: FileConfiguration;
  hosts: FileHost[];
  comments: FileComment[];
  routeChanges: FileRouteChange[];
}

/** JSON in printable ASCII without quotes: safe inside a SQL string literal, and exact after JSON.parse. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[^\x20-\x26\x28-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
