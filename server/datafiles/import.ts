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

/** Samples per batch handed to the ingest pipeline. */
const SliceSamples = 500_000;

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

/** The file's samples through the ingest pipeline, in time slices of about SliceSamples. */
async function ingestSamples(deps: ImportDeps, p: Principal, sessionId: number, path: string, meta: FileMetadata): Promise<void> {
  const { Begin, End, Samples } = meta.range;
  if (!Samples || Begin === null || End === null) return;
  const slices = Math.max(1, Math.ceil(Samples / SliceSamples));
  const width = (End - Begin) / slices;
  deps.ingest.openSession(sessionId, p.accountId);
  let added = 0;
  for (let i = 0; i < slices; i++) {
    const lo = i === 0 ? -Infinity : Begin + i * width;
    const hi = i === slices - 1 ? Infinity : Begin + (i + 1) * width;
    const [time, hop, latency] = await deps.store.read((q) =>
      q.numbers(
        `SELECT time_ms, hop, latency_ms FROM read_parquet(${sqlPath(path)})
         WHERE time_ms >= ${Number.isFinite(lo) ? lo : -1} AND time_ms < ${Number.isFinite(hi) ? hi : 9e15} ORDER BY time_ms, hop`,
      ),
    );
    if (!time.length) continue;
    await deps.ingest.addBatch({ length: time.length, session: new Int32Array(time.length).fill(sessionId), time, hop: Int32Array.from(hop), latency });
    added += time.length;
  }
  await deps.ingest.finishSession(sessionId);
  if (added !== Samples) throw new Error(`import read ${added} of ${Samples} samples`);
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
