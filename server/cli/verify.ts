// migrate-store's verification pass: the rows of every table on both stores, and a sample of
// answers (DataPointBuckets and TraceGraphRows of up to VerifiedSessions sessions, several
// ranges and periods) computed by the app's own data service and kernels on each store, which
// must be equal (the two layouts answer to the bit: docs/store.md "Samples on PostgreSQL").
import type { Store } from '../store/db.js';
import { storedCounts } from '../store/sample-tables.js';
import { dataPointBuckets } from '../data/buckets.js';
import { traceGraphRows } from '../data/graph-rows.js';
import type { Principal } from '../account/principal.js';

/** Sessions whose answers are compared (spread over all of them). */
export const VerifiedSessions = 12;

export interface Verification {
  tables: number;
  rows: number;
  answers: number;
  sessions: number;
  /** What differs, one line each (empty: verified). */
  differences: string[];
}

/** The rows of each table, and of samples and rollup rows as each layout counts them. */
async function counts(store: Store, tables: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const t of tables) out.set(t, Number((await store.one<{ n: number }>(`SELECT count(*)::BIGINT AS n FROM "${t}"`))!.n));
  const stored = await storedCounts(store, 0);
  out.set('hop samples', stored.samples);
  out.set('rollup rows', stored.rollups);
  return out;
}

interface SessionRow {
  id: number;
  account_id: number;
  first: number | null;
  latest: number | null;
  hops: number | null;
}

/** The questions asked of one session: its whole span, its last day, a raw 10 minutes, per first and last hop. */
async function answersOf(store: Store, s: SessionRow): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (s.first === null || s.latest === null) return out;
  const p: Principal = { userId: 0, accountId: s.account_id, username: 'migrate-store', isRoot: true, claims: [] };
  const from = s.first;
  const to = s.latest + 1;
  const span = Math.max(to - from, 60_000);
  const ranges: [string, number, number, number][] = [
    ['everything', from, to, Math.max(5, Math.ceil(span / 1000 / 300))],
    ['the last day at 60 s', Math.max(from, to - 86_400_000), to, 60],
    ['the last hour at 10 s', Math.max(from, to - 3_600_000), to, 10],
    ['10 min in the middle at 5 s', from + Math.floor(span / 2), from + Math.floor(span / 2) + 600_000, 5],
  ];
  const hops = [...new Set([1, Math.max(1, s.hops ?? 1)])];
  for (const [label, a, b, periodSeconds] of ranges)
    for (const hop of hops)
      out.set(`session ${s.id} DataPointBuckets ${label} hop ${hop}`, JSON.stringify(await dataPointBuckets(store, p, { targetId: `${s.id}_h_${hop}`, startTime: a, endTime: b, periodSeconds, includeJitter: true })));
  for (const [label, a, b] of [
    ['everything', from, to],
    ['the last hour', Math.max(from, to - 3_600_000), to],
  ] as [string, number, number][])
    out.set(
      `session ${s.id} TraceGraphRows ${label}`,
      JSON.stringify(await traceGraphRows(store, p, { requests: [{ ID: String(s.id), Start: String(a), End: String(b) }], columnNames: [], listType: 'Target', uniqueID: String(s.id) })),
    );
  return out;
}

/** Compares both stores; `tables` are the tables copied as rows. */
export async function verify(source: Store, target: Store, tables: string[]): Promise<Verification> {
  const differences: string[] = [];
  const [a, b] = [await counts(source, tables), await counts(target, tables)];
  let rows = 0;
  for (const [t, n] of a) {
    rows += n;
    if (b.get(t) !== n) differences.push(`${t}: ${n} rows in DuckDB, ${b.get(t)} in PostgreSQL`);
  }
  const all = await source.all<SessionRow>(
    `SELECT c.id, c.account_id, c.first_sample::DOUBLE AS first, c.latest_sample::DOUBLE AS latest, (SELECT max(hop)::INTEGER FROM hosts h WHERE h.session_id = c.id) AS hops
     FROM sessions_counted c WHERE c.first_sample IS NOT NULL ORDER BY c.id`,
  );
  const step = Math.max(1, all.length / VerifiedSessions);
  const picked = all.length <= VerifiedSessions ? all : Array.from({ length: VerifiedSessions }, (_, i) => all[Math.floor(i * step)]);
  let answers = 0;
  for (const s of picked) {
    const [x, y] = [await answersOf(source, s), await answersOf(target, s)];
    for (const [k, v] of x) {
      answers++;
      if (y.get(k) !== v) differences.push(`${k}: the answers differ`);
    }
  }
  return { tables: tables.length, rows, answers, sessions: picked.length, differences };
}
