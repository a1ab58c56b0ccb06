// DownloadPP2File: a session's samples of a range, written by DuckDB's own Parquet writer
// (COPY ... TO ... (FORMAT parquet, KV_METADATA {...})) with the rest of the target in the
// file's key-value metadata (format.ts).
import type { Principal } from '../account/principal.js';
import { LocalMachineAgentId, LocalMachineAgentName } from '../contract/sessions.js';
import { badRequest } from '../http/errors.js';
import { parseOptionalTime } from '../http/time.js';
import type { Store } from '../store/db.js';
import { commentsBetween } from '../comments/repository.js';
import { hostsOf } from '../targets/repository.js';
import { sessionFor } from '../targets/service.js';
import { asciiJson, ColumnsDescription, DataFileExtension, DataFileFormat, DataFileVersion, MetaKey, type FileMetadata } from './format.js';
import { configurationOf, routeChangesBetween } from './repository.js';
import { fileSamplesSql, samplesInSql, selectSamples, selectionStatsSql, type SampleSelection } from './samples-sql.js';
import { latencyMicros } from '../store/latency-micros.js';
import { sqlPath } from './temp-files.js';
import { copyToFile, writeColumnsToFile, type CopyColumn } from '../store/file-copies.js';

/** The columns fileSamplesSql reads (format version 2), in its order. */
const FileSampleColumns: CopyColumn[] = [
  { name: 'time_ms', type: 'BIGINT' },
  { name: 'hop', type: 'SMALLINT' },
  { name: 'latency_us', type: 'INTEGER' },
];

export interface DownloadArgs {
  ID: string;
  BeginTime?: string | number;
  EndTime?: string | number;
  MaxSamples?: number;
}

export interface WrittenFile {
  /** The name offered in content-disposition. */
  fileName: string;
  /** MaxSamples cut the range (answered 206). */
  cut: boolean;
  samples: number;
}

/** The range asked for, checked; without times, the whole session. */
export async function selection(store: Store, p: Principal, args: DownloadArgs) {
  const s = await sessionFor(store, p, args.ID);
  const from = parseOptionalTime(args.BeginTime, 'BeginTime') ?? 0;
  const to = parseOptionalTime(args.EndTime, 'EndTime') ?? 8.64e15;
  if (from > to) throw badRequest('BeginTime must not be after EndTime.');
  return { session: s, sel: { sessionId: s.id, from, to } satisfies SampleSelection };
}

/** "router.example.com 2026-11-24 2215.pp2": ASCII letters, digits, dots and dashes only. */
export function dataFileName(target: string, firstSample: number | null, ext = DataFileExtension): string {
  const name = target.replace(/[^A-Za-z0-9.-]+/g, '_').replace(/^[._]+/, '').slice(0, 80) || 'Datafile';
  const when = firstSample === null ? '' : `_${new Date(firstSample).toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-')}`;
  return `${name}${when}${ext}`;
}

export async function writeDataFile(store: Store, p: Principal, args: DownloadArgs, path: string): Promise<WrittenFile> {
  const { session: s, sel } = await selection(store, p, args);
  return store.read(async (q) => {
    // Where no SQL text reaches the samples (PostgreSQL's blocks), they are read into JS once.
    const inJs = samplesInSql(q) ? undefined : await selectSamples(q, { ...sel, limit: args.MaxSamples });
    const all = inJs ? inJs.all : await q.one<{ n: number; begin: number | null; end: number | null }>(selectionStatsSql(sel));
    const cut = args.MaxSamples !== undefined && all!.n > args.MaxSamples;
    const chosen: SampleSelection = cut ? { ...sel, limit: args.MaxSamples } : sel;
    const stats = inJs ? inJs.chosen : cut ? (await q.one<{ n: number; begin: number | null; end: number | null }>(selectionStatsSql(chosen)))! : all!;
    const hosts = await hostsOf(q, [s.id]);
    const config = (await configurationOf(q, s.configurationId)) ?? { Name: 'Default', Warn: 100, Bad: 250, Scale: 100 };
    // Comments and route changes of the range asked for (a cut range keeps them all: they are small).
    const commentTo = Math.min(sel.to, 8.64e15);
    const comments = await commentsBetween(q, s.id, sel.from, commentTo);
    const routeChanges = await routeChangesBetween(q, s.id, sel.from, commentTo);
    const meta: FileMetadata = {
      version: DataFileVersion,
      target: {
        OriginalTarget: s.originalTarget,
        TargetName: s.targetName,
        TargetIP: s.targetIp,
        Description: s.description,
        TraceIntervalMs: s.traceIntervalMs,
        DynamicDnsMode: s.dynamicDnsMode,
        FinalHopOnly: s.finalHopOnly,
        StartTime: s.startTime,
        EndTime: s.endTime,
        AgentName: s.sentinelId === LocalMachineAgentId ? LocalMachineAgentName : `Agent ${s.sentinelId}`,
        SourceSessionId: s.id,
      },
      range: { Begin: stats.begin, End: stats.end, Samples: stats.n, Cut: cut },
      configuration: config,
      hosts: hosts.map((h) => ({ Hop: h.hop, Address: h.address, DnsName: h.dnsName, Name: h.name, Notes: h.notes })),
      comments: comments.map((c) => ({ When: c.whenMs, Text: c.text, Type: c.type, ExtraAttributesJson: c.extraAttributesJson })),
      routeChanges,
    };
    const kv: [string, unknown][] = [
      [MetaKey.Format, DataFileFormat],
      [MetaKey.Version, meta.version],
      [MetaKey.Target, meta.target],
      [MetaKey.Range, meta.range],
      [MetaKey.Configuration, meta.configuration],
      [MetaKey.Hosts, meta.hosts],
      [MetaKey.Comments, meta.comments],
      [MetaKey.RouteChanges, meta.routeChanges],
      [MetaKey.Columns, ColumnsDescription],
    ];
    // asciiJson has no quote characters, so each value is a plain SQL string literal.
    const kvSql = kv.map(([k, v]) => `'${k}': '${typeof v === 'string' ? v : asciiJson(v)}'`).join(', ');
    // Version 2's integer columns (format.ts), the stored values as they are, in time, then
    // hop order (fileSamplesSql: the order the import rolls up in, whatever the store's).
    // Parquet 2 encodings: DELTA_BINARY_PACKED for every column (no dictionaries:
    // DuckDB would pick one for the time, 4,096 distinct values a row group, which cost 1 MB
    // on bench:files' 7 days where the delta of a 2.5 s step costs 4 KB), then zstd.
    // Measured on bench:files' history: 1.84 bytes/hop sample, version 1's DOUBLEs 6.43.
    const options = `FORMAT parquet, PARQUET_VERSION V2, COMPRESSION zstd, DICTIONARY_SIZE_LIMIT 1, ROW_GROUP_SIZE 122880, KV_METADATA {${kvSql}}`;
    if (inJs) {
      // The stored integers, as fileSamplesSql reads them: ms times, microsecond latencies.
      const micros = Float64Array.from(inJs.latency, latencyMicros);
      await writeColumnsToFile(store.fileDb!, FileSampleColumns, [inJs.time, Float64Array.from(inJs.hop), micros], sqlPath(path), options);
    } else await copyToFile(q, store.fileDb, fileSamplesSql(chosen), FileSampleColumns, sqlPath(path), options);
    return { fileName: dataFileName(s.targetName || s.originalTarget, stats.begin), cut, samples: stats.n };
  });
}
