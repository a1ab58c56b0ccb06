// ImportPP2File: a data file becomes a new target (an open, paused session), optionally in a
// summary. The whole file is read and checked first (read-file.ts); only then is anything
// written. The session is created as Will Delete (listed nowhere), its samples go through
// the ingest pipeline (which computes the rollups the graphs read), and one last
// transaction makes it a paused target. A failure on the way deletes the session and all
// it had; a stop on the way leaves a Will Delete session, deleted at the next start.
import { Claim } from '../contract/account.js';
import { LocalMachineAgentId, SessionState } from '../contract/sessions.js';
import type { TargetIdResult } from '../contract/targets.js';
import { requireClaim } from '../account/authenticate.js';
import type { Principal } from '../account/principal.js';
import type { DomainEventBus } from '../events.js';
import type { Config } from '../config.js';
import type { IngestPipeline } from '../ingest/pipeline.js';
import type { Store } from '../store/db.js';
import { insertComment } from '../comments/repository.js';
import * as summaries from '../summaries/service.js';
import { deleteForGood } from '../sessions/service.js';
import { insertSession, setSessionState } from '../targets/repository.js';
import type { FileMetadata } from './format.js';
import { checkSamples, readMetadata } from './read-file.js';
import { configurationNamed, insertHosts, insertRouteChanges, setImportedFields } from './repository.js';
import { sqlPath } from './temp-files.js';

export interface ImportDeps {
  store: Store;
  events: DomainEventBus;
  config: Config;
  ingest: IngestPipeline;
}

/** Checks the summary before anything is written; answers whether the target must be added to it. */
async function summaryToJoin(deps: ImportDeps, p: Principal, summaryId: number | undefined): Promise<number | undefined> {
  if (summaryId === undefined) return undefined;
  const s = await summaries.getSummary(deps, p, { summaryId });
  // All Targets shows every open target of the account: the import is in it already.
  if (s.IsAllTargets) return undefined;
  return Number(s.UniqueID);
}

async function createSession(deps: ImportDeps, p: Principal, meta: FileMetadata): Promise<number> {
  const t = meta.target;
  return deps.store.transaction(async (q) => {
    const id = await insertSession(q, {
      accountId: p.accountId,
      originalTarget: t.OriginalTarget,
      targetName: t.TargetName,
      targetIp: t.TargetIP,
      state: SessionState.WillDelete,
      dynamicDnsMode: t.DynamicDnsMode,
      sentinelId: LocalMachineAgentId,
      configurationId: await configurationNamed(q, meta.configuration.Name),
      traceIntervalMs: t.TraceIntervalMs,
      finalHopOnly: t.FinalHopOnly,
      createdBy: p.userId,
      startTime: t.StartTime,
    });
    await setImportedFields(q, id, t.Description, t.EndTime);
    await insertHosts(q, id, meta.hosts, Date.now());
    await insertRouteChanges(q, id, meta.routeChanges);
    for (const c of meta.comments) {
      await insertComment(q, { sessionId: id, whenMs: c.When, text: c.Text, type: c.Type, extraAttributesJson: c.ExtraAttributesJson }, p.userId);
    }
    return id;
  });
}

/** Samples read from the file at a time. */
const SliceSamples = 2_000_000;
/**
 * Batches handed to the ingest pipeline: 50,000 samples each, at most 8 waiting at a time,
 * as concurrent agents deliver (bench:store); the pipeline keeps their order and commits them
 * in groups. All of a slice at once made one huge flush, one at a time one flush each: both
 * slower (bench:files).
 */
const BatchSamples = 50_000;
const BatchesInFlight = 8;

/**
 * The file's samples through the ingest pipeline, in the file's order (the order the
 * exporting server stored them in), sliced by row number: no sort, and a round that came
 * late there comes late here too, so the rollups come out the same.
 */
async function ingestSamples(deps: ImportDeps, p: Principal, sessionId: number, path: string, meta: FileMetadata): Promise<void> {
  const total = meta.range.Samples;
  if (!total) return;
  deps.ingest.openSession(sessionId, p.accountId);
  const inFlight: Promise<void>[] = [];
  let added = 0;
  for (let from = 0; from < total; from += SliceSamples) {
    const [time, hop, latency] = await deps.store.read((q) =>
      q.numbers(
        `SELECT time_ms, hop, latency_ms FROM read_parquet(${sqlPath(path)}, file_row_number = true)
         WHERE file_row_number >= ${from} AND file_row_number < ${from + SliceSamples} ORDER BY file_row_number`,
      ),
    );
    const hops = Int32Array.from(hop);
    for (let a = 0; a < time.length; a += BatchSamples) {
      const b = Math.min(time.length, a + BatchSamples);
      if (inFlight.length >= BatchesInFlight) await inFlight.shift();
      inFlight.push(
        deps.ingest.addBatch({ length: b - a, session: new Int32Array(b - a).fill(sessionId), time: time.slice(a, b), hop: hops.slice(a, b), latency: latency.slice(a, b) }),
      );
    }
    added += time.length;
  }
  await Promise.all(inFlight);
  await deps.ingest.finishSession(sessionId);
  if (added !== total) throw new Error(`import read ${added} of ${total} samples`);
}

export async function importDataFile(deps: ImportDeps, p: Principal, file: { path: string; name: string }, summaryId?: number): Promise<TargetIdResult & { summaryId?: number }> {
  requireClaim(p, Claim.TargetManagement);
  const joinSummary = await summaryToJoin(deps, p, summaryId);
  const meta = await deps.store.read(async (q) => {
    const m = await readMetadata(q, file.path, file.name);
    await checkSamples(q, file.path, file.name, m);
    return m;
  });
  const id = await createSession(deps, p, meta);
  try {
    await ingestSamples(deps, p, id, file.path, meta);
    await deps.store.transaction((q) => setSessionState(q, id, SessionState.Pause, meta.target.EndTime));
    if (joinSummary !== undefined) await summaries.addHost(deps, p, { host: String(id), summaryId: joinSummary });
  } catch (err) {
    // The pipeline forgets the session first, so no rollup of it is written after the delete.
    await deps.ingest.finishSession(id).catch(() => undefined);
    await deleteForGood(deps, [id]);
    throw err;
  }
  deps.events.emit('SessionsChanged', p.accountId);
  deps.events.emit('SummaryListChanged', p.accountId);
  return { ID: id, summaryId: joinSummary };
}
