// What migrate-store's suites compare between the DuckDB source and PostgreSQL: the answers
// (DataPointBuckets of every hop, TraceGraphRows) over ranges a suite names, and the rows of
// every table (samples and rollup rows per session and level, through each backend's layout).
// Loads the built server (dist/): the suites run the built command against it.
import type * as DbModule from '../../server/store/db.js';
import type * as TablesModule from '../../server/store/sample-tables.js';
import type * as BucketsModule from '../../server/data/buckets.js';
import type * as GraphRowsModule from '../../server/data/graph-rows.js';

const dist = (p: string) => new URL(`../../dist/${p}`, import.meta.url).href;
const { Store: StoreOpener } = (await import(dist('server/store/db.js'))) as typeof DbModule;
const { readRawSamples, readRollupRows } = (await import(dist('server/store/sample-tables.js'))) as typeof TablesModule;
const { dataPointBuckets } = (await import(dist('server/data/buckets.js'))) as typeof BucketsModule;
const { traceGraphRows } = (await import(dist('server/data/graph-rows.js'))) as typeof GraphRowsModule;

export type Store = Awaited<ReturnType<typeof StoreOpener.open>>;
const End = 8.64e15;
const Resolutions = [60_000, 600_000, 3_600_000];

/** DataPointBuckets ranges: [label, from, to, periodSeconds]. */
export type BucketRange = [string, number, number, number];
/** TraceGraphRows ranges: [label, from, to]. */
export type GraphRange = [string, number, number];

/** Every answer compared: DataPointBuckets of every hop at each range and period, TraceGraphRows of each range. */
export async function answers(store: Store, accountId: number, sessions: { id: number; hops: number }[], buckets: BucketRange[], graphs: GraphRange[]): Promise<Record<string, unknown>> {
  const principal = { userId: 0, accountId, username: 'test', isRoot: true, claims: [] };
  const out: Record<string, unknown> = {};
  for (const { id, hops } of sessions) {
    for (const [label, from, to, periodSeconds] of buckets)
      for (let hop = 1; hop <= hops; hop++)
        out[`${id} DataPointBuckets ${label} hop ${hop}`] = await dataPointBuckets(store, principal, {
          targetId: `${id}_h_${hop}`,
          startTime: from,
          endTime: to,
          periodSeconds,
          includeJitter: true,
        });
    for (const [label, from, to] of graphs)
      out[`${id} TraceGraphRows ${label}`] = await traceGraphRows(store, principal, {
        requests: [{ ID: String(id), Start: String(from), End: String(to) }],
        columnNames: [],
        listType: 'Target',
        uniqueID: String(id),
      });
  }
  return out;
}

/** Rows of every table (samples and rollup rows per session and level, through each backend's layout). */
export async function tableRows(store: Store, tables: string[], sessions: number[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of tables) out[t] = Number((await store.one<{ n: number }>(`SELECT count(*)::BIGINT AS n FROM "${t}"`))!.n);
  await store.read(async (q) => {
    for (const s of sessions) {
      out[`samples of ${s}`] = (await readRawSamples(q, s, -End, End)).length;
      for (const r of Resolutions) out[`rollups ${r} of ${s}`] = (await readRollupRows(q, r, s, -End, End)).time.length;
    }
  });
  return out;
}
