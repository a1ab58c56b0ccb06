// ImportPP2File: a data file becomes a new target (an open, paused session), optionally in a
// summary. The metadata and the file's layout are checked first (read-file.ts); then one
// transaction creates the session with its hosts, comments and route changes and writes the
// samples, their rollups and marks in bulk (bulk-import.ts, beside the live ingest pipeline),
// checking every value as it reads it: a bad value throws and the transaction writes nothing.
// Then the target joins the summary (a failure there deletes it again).
import { Claim } from '../contract/account.js';
import { LocalMachineAgentId, SessionState } from '../contract/sessions.js';
import type { TargetIdResult } from '../contract/targets.js';
import { requireClaim } from '../account/authenticate.js';
import type { Principal } from '../account/principal.js';
import type { DomainEventBus } from '../events.js';
import type { Config } from '../config.js';
import type { Queryable, Store } from '../store/db.js';
import { inDayPartitions, prepareDaysWrite } from '../store/sample-tables.js';
import * as summaries from '../summaries/service.js';
import { deleteForGood } from '../sessions/service.js';
import { insertSession, setSessionState } from '../targets/repository.js';
import type { FileMetadata } from './format.js';
import { checkLayout, readMetadata } from './read-file.js';
import { fileDays, writeSamplesAndRollups } from './bulk-import.js';
import { configurationNamed, insertComments, insertHosts, insertRouteChanges, setImportedFields } from './repository.js';
import { markImported } from '../sessions/imported.js';

export interface ImportDeps {
  store: Store;
  events: DomainEventBus;
  config: Config;
}

/** Checks the summary before anything is written; answers whether the target must be added to it. */
async function summaryToJoin(deps: ImportDeps, p: Principal, summaryId: number | undefined): Promise<number | undefined> {
  if (summaryId === undefined) return undefined;
  const s = await summaries.getSummary(deps, p, { summaryId });
  // All Targets shows every open target of the account: the import is in it already.
  if (s.IsAllTargets) return undefined;
  return Number(s.UniqueID);
}

/** The session row (paused, as an imported target is), its hosts, route changes and comments. */
async function createSession(q: Queryable, p: Principal, meta: FileMetadata): Promise<number> {
  const t = meta.target;
  const id = await insertSession(q, {
    accountId: p.accountId,
    originalTarget: t.OriginalTarget,
    targetName: t.TargetName,
    targetIp: t.TargetIP,
    state: SessionState.Pause,
    dynamicDnsMode: t.DynamicDnsMode,
    sentinelId: LocalMachineAgentId,
    configurationId: await configurationNamed(q, meta.configuration.Name),
    traceIntervalMs: t.TraceIntervalMs,
    finalHopOnly: t.FinalHopOnly,
    createdBy: p.userId,
    startTime: t.StartTime,
  });
  await setImportedFields(q, id, t.Description, t.EndTime);
  await markImported(q, id, Date.now());
  await setSessionState(q, id, SessionState.Pause, t.EndTime);
  await insertHosts(q, id, meta.hosts, Date.now());
  await insertRouteChanges(q, id, meta.routeChanges);
  await insertComments(q, id, meta.comments, p.userId, Date.now());
  return id;
}

/** What an import did: the new target, the summary it joined, and where the time went (ms; bench:files prints it). */
export interface ImportResult extends TargetIdResult {
  summaryId?: number;
  /** checks: metadata and layout; transaction: all of it, of which session: the session's rows, insert, read, rollup, append: bulk-import.ts's phases, commit. */
  phases: { checks: number; transaction: number; session: number; insert: number; read: number; rollup: number; append: number; commit: number };
}

export async function importDataFile(deps: ImportDeps, p: Principal, file: { path: string; name: string }, summaryId?: number): Promise<ImportResult> {
  requireClaim(p, Claim.TargetManagement);
  const joinSummary = await summaryToJoin(deps, p, summaryId);
  let t = performance.now();
  // The file alone, on the file reader (DuckDB's Parquet functions, whichever the store's backend).
  const files = deps.store.fileReader;
  const meta = await readMetadata(files, file.path, file.name);
  await checkLayout(files, file.path, file.name, meta);
  const checks = performance.now() - t;
  t = performance.now();
  let session = 0;
  let written = 0;
  // PostgreSQL: the day partitions the samples need, before the transaction, and again when
  // another process dropped one meanwhile (sample-tables.ts inDayPartitions).
  // Background: the console's reads do not wait for it (Store.read waits for foreground
  // writes), so a long import holds no other request; this caller answers after the commit.
  const { id, bulk } = await inDayPartitions(deps.store, () => prepareDaysWrite(deps.store, () => fileDays(files, file.path, meta)), () =>
    deps.store.transaction(async (q, conn) => {
      const t1 = performance.now();
      const sessionId = await createSession(q, p, meta);
      session = performance.now() - t1;
      const result = await writeSamplesAndRollups(q, conn, sessionId, file.path, file.name, meta, deps.store.fileReader);
      written = performance.now();
      return { id: sessionId, bulk: result };
    }, { background: true }),
  );
  const commit = performance.now() - written;
  const transaction = performance.now() - t;
  if (joinSummary !== undefined) {
    try {
      await summaries.addHost(deps, p, { host: String(id), summaryId: joinSummary });
    } catch (err) {
      await deleteForGood(deps, [id]);
      throw err;
    }
  }
  deps.events.emit('SessionsChanged', p.accountId);
  deps.events.emit('SummaryListChanged', p.accountId);
  return { ID: id, summaryId: joinSummary, phases: { checks, transaction, session, ...bulk.phases, commit } };
}
