// The Hopwatch data file (.pp2), version 2: one Parquet file of hop samples with the target,
// its hosts, configuration, comments and route changes as JSON in the file's key-value
// metadata. Described for readers in docs/data-file.md; this module is its one definition.
// Version 1 (DOUBLE time and latency in ms) is still read: SampleLayouts.
import { LatencyCode, SpecialLatencyBase } from '../../engine/latency-codes.js';
import { latencyMicrosSql, latencyMsSql } from '../store/latency-micros.js';

export const DataFileFormat = 'hopwatch-data-file';
/** Raise when a reader of the old version would misread a new file; say what changed in docs/data-file.md. */
export const DataFileVersion = 2;
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
  /** Version 2: each sample column's meaning in words, for readers without docs/data-file.md (an import does not read it). */
  Columns: 'hopwatch.columns',
} as const;

/** hopwatch.columns: what the sample columns of this version mean (docs/data-file.md says the same). */
export const ColumnsDescription = {
  time_ms: 'when the probe was sent: epoch milliseconds (UTC)',
  hop: 'hop number, 1 = first router (0..255)',
  latency_us:
    'round-trip time in microseconds when >= 0 (milliseconds: latency_us / 1000.0); a negative value is a code, not a time: -1 timeout (no answer, counts as lost), -2 not participating (hop not probed that round), -4 stop/start marker',
} as const;

/** Latency codes a file may hold besides measured milliseconds (engine/latency-codes.ts). */
export const FileLatencyCodes = [LatencyCode.Timeout, LatencyCode.NotParticipating, LatencyCode.StopStart] as const;
/** The same codes as version 2 writes them in latency_us (the store's: code - SpecialLatencyBase, i.e. -1, -2, -4). */
export const FileLatencyCodesMicros = FileLatencyCodes.map((c) => c - SpecialLatencyBase);

/**
 * How each format version lays out its samples, and the SQL over a read_parquet of it that
 * the import uses: the time in ms and the latency in ms or a spec-2 code (as the ingest worker
 * takes them), the latency as the store's microseconds, and the test of a valid row.
 */
export interface SampleLayout {
  /** The sample columns, in order, with their Parquet (DuckDB) types. */
  columns: readonly (readonly [string, string])[];
  timeMs: string;
  latencyMs: string;
  latencyMicros: string;
  /** A row the import takes (time after 0, hop 0..255, a measurement or one of FileLatencyCodes). */
  valid: string;
}

const validTime = (t: string) => `${t} IS NOT NULL AND ${t} >= 0 AND ${t} <= 8.64e15`;
const validHop = `hop IS NOT NULL AND hop BETWEEN 0 AND 255`;

export const SampleLayouts: Record<number, SampleLayout> = {
  // Version 1: DOUBLE ms (time, and latency with its spec-2 code below -4194304).
  1: {
    columns: [
      ['time_ms', 'DOUBLE'],
      ['hop', 'SMALLINT'],
      ['latency_ms', 'DOUBLE'],
    ],
    timeMs: 'time_ms',
    latencyMs: 'latency_ms',
    latencyMicros: latencyMicrosSql('latency_ms'),
    valid: `${validTime('time_ms')} AND isfinite(time_ms) AND ${validHop} AND latency_ms IS NOT NULL AND isfinite(latency_ms)
      AND (latency_ms >= 0 OR list_contains([${FileLatencyCodes.join(',')}]::DOUBLE[], latency_ms))`,
  },
  // Version 2: integers, the store's own encoding (docs/store.md "Compact samples"): ms and
  // microseconds, the codes as -1, -2, -4. A third of version 1's size (bench:files).
  2: {
    columns: [
      ['time_ms', 'BIGINT'],
      ['hop', 'SMALLINT'],
      ['latency_us', 'INTEGER'],
    ],
    timeMs: 'time_ms::DOUBLE',
    latencyMs: latencyMsSql('latency_us'),
    latencyMicros: 'latency_us',
    valid: `${validTime('time_ms')} AND ${validHop} AND latency_us IS NOT NULL
      AND (latency_us >= 0 OR list_contains([${FileLatencyCodesMicros.join(',')}]::INTEGER[], latency_us))`,
  },
};

/** The sample columns this version writes, in order, with their Parquet (DuckDB) types. */
export const SampleColumns = SampleLayouts[DataFileVersion].columns;

/** More hop samples than an import takes (30 hops at 1 s for about 38 days). */
export const MaxImportSamples = 100_000_000;
/**
 * The most samples one Parquet row group of an imported file may hold (docs/data-file.md
 * "Limits"): the import reads a file a row group at a time, so this bounds its memory.
 * Hopwatch writes 122,880 (DuckDB's default), pyarrow 1,048,576 (its default).
 */
export const MaxRowGroupSamples = 1_048_576;
/**
 * The most bytes of Parquet footer (the key-value metadata and the row group descriptors)
 * an import reads: its JSON is parsed on the server's main thread (about 5 ms a MB), so
 * this bounds that pause, and the comments and route changes a file can bring.
 */
export const MaxMetadataBytes = 4 * 1024 * 1024;

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
  /** hopwatch.version: the layout of the samples (SampleLayouts). */
  version: number;
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
