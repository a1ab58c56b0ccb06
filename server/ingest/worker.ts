// The ingest worker (Piscina): validates sample batches and computes rollup rows with the
// WASM bucket kernel. Stateless: every task carries what it needs.
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { loadKernels, type Kernels } from '../../wasm/loader.js';
import { concatRollupRows, emptyRollupRows, rollupRowsFromBuckets, sliceRollupRows, type RollupRows } from '../rollups/rows.js';
import { LatencyCode, SpecialLatencyBase } from '../../engine/latency-codes.js';
import { latencyMicros } from '../store/latency-micros.js';
import { newStoredSamples, type SampleBatch } from './sample-columns.js';
import { LateSampleGraceMs, RollupResolutionsMs, ceilTo, floorTo } from '../rollups/levels.js';
import { appendRaw, splitRaw, type RawPending } from './session-rollup-state.js';

let kernels: Kernels | undefined;
const k = () => (kernels ??= loadKernels());

/** No rollup rows: shared, as nothing writes into rows (a fresh empty set per session and level was a sixth of a small flush). */
const NoRows: RollupRows = emptyRollupRows();

const storedCodes = new Set<number>([LatencyCode.Timeout, LatencyCode.NotParticipating, LatencyCode.StopStart]);
export const MaxHop = 255;

/** The time span of some samples, whether they are in time order, their deepest hop. */
interface Span {
  first: number;
  last: number;
  sorted: boolean;
  hops: number;
}

export interface PrepareResult {
  batch: SampleBatch;
  dropped: number;
  /** The session of every kept row when they all have the same; NaN when not (or none kept). */
  single: number;
  /** The span of all kept rows (a single session's span, when there is one). */
  span: Span;
}

/**
 * Keeps the rows that can be stored: a finite time, a hop 0..255, and a latency that is a
 * measurement (>= 0) or a code worth keeping (Pending and Ignore carry no outcome); a
 * measurement rounded to the microsecond it is stored as (latency-micros.ts), the time to the
 * millisecond (integer ms since migration 18; a round's time is Date.now(), already whole). The same
 * pass measures what the rollup needs of the kept rows, so a batch of one session (the usual
 * case) is read once before the kernel.
 */
export function prepare(batch: SampleBatch): PrepareResult {
  const n = batch.length;
  let w = 0;
  const { session, time, hop, latency } = batch;
  let first = Infinity;
  let last = -Infinity;
  let sorted = true;
  let hops = 1;
  let prev = -Infinity;
  const s0 = session[0];
  let single = true;
  // The stored widths, written in the same pass (the builder's buffers when it gave some).
  const out = batch.stored && batch.stored.time.length >= n ? batch.stored : newStoredSamples(n);
  // A BIGINT of whole ms (below 2^53) without a BigInt per value: its two 32-bit halves (little-endian, as DuckDB's).
  const timeHalves = new Int32Array(out.time.buffer, out.time.byteOffset, n * 2);
  for (let i = 0; i < n; i++) {
    const t = Math.round(time[i]);
    const h = hop[i];
    const l = latency[i];
    const ok =
      Number.isFinite(t) && t > 0 && h >= 0 && h <= MaxHop && Number.isFinite(l) && (l >= 0 || (l < SpecialLatencyBase && storedCodes.has(l)));
    if (!ok) continue;
    const s = session[i];
    // Every later step (rollups, recent data, the store) sees the latency as it is stored:
    // its integer microseconds (or a negative code) for the table, and those back in ms
    // (toStoredPrecision, one rounding for both).
    const micros = latencyMicros(l);
    const stored = l >= 0 ? micros / 1000 : l;
    if (w !== i || stored !== l || t !== time[i]) {
      session[w] = s;
      time[w] = t;
      hop[w] = h;
      latency[w] = stored;
    }
    timeHalves[2 * w] = t >>> 0;
    timeHalves[2 * w + 1] = Math.floor(t / 4294967296);
    out.hop[w] = h;
    out.latency[w] = micros;
    w++;
    if (s !== s0) single = false;
    if (t < first) first = t;
    if (t > last) last = t;
    if (t < prev) sorted = false;
    prev = t;
    if (h > hops) hops = h;
  }
  return {
    batch: {
      length: w,
      session: session.subarray(0, w),
      time: time.subarray(0, w),
      hop: hop.subarray(0, w),
      latency: latency.subarray(0, w),
      stored: { time: out.time.subarray(0, w), hop: out.hop.subarray(0, w), latency: out.latency.subarray(0, w) },
    },
    dropped: n - w,
    single: w && single ? session[0] : NaN,
    span: { first, last, sorted, hops },
  };
}

export interface SampleRollupJob {
  kind: 'samples';
  start: number;
  end: number;
  resolution: number;
  time: Float64Array;
  hop: Int32Array;
  latency: Float64Array;
}

export interface RowsRollupJob {
  kind: 'rows';
  start: number;
  end: number;
  resolution: number;
  rows: RollupRows;
}

function maxHop(hops: ArrayLike<number>): number {
  let m = 1;
  for (let i = 0; i < hops.length; i++) if (hops[i] > m) m = hops[i];
  return m;
}

/** Orders samples by time (stable), as the kernel's first/last/jitter need. */
function inTimeOrder(job: SampleRollupJob) {
  const n = job.time.length;
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) if (job.time[i] < job.time[i - 1]) sorted = false;
  if (sorted) return job;
  const idx = Array.from({ length: n }, (_, i) => i).sort((a, b) => job.time[a] - job.time[b] || a - b);
  return {
    ...job,
    time: Float64Array.from(idx, (i) => job.time[i]),
    hop: Int32Array.from(idx, (i) => job.hop[i]),
    latency: Float64Array.from(idx, (i) => job.latency[i]),
  };
}

/** Rolls raw samples or finer rollup rows of [start, end) up into rows of `resolution`. */
export function rollup(job: SampleRollupJob | RowsRollupJob): RollupRows {
  const bucketCount = Math.max(1, Math.round((job.end - job.start) / job.resolution));
  if (job.kind === 'samples') {
    const s = inTimeOrder(job);
    return rollupSamples([s], { start: job.start, period: job.resolution, bucketCount, hopCount: maxHop(s.hop) });
  }
  const spec = { start: job.start, period: job.resolution, bucketCount, hopCount: maxHop(job.rows.hop) };
  // The rows copy what they keep at once: the kernel's result can stay in its memory.
  return rollupRowsFromBuckets(k().begin(spec).addRollups(job.rows).finishBuckets({ views: true }));
}

/** Samples given as pieces in time order, one after the other, rolled up onto spec's grid. */
function rollupSamples(pieces: RawPending[], spec: { start: number; period: number; bucketCount: number; hopCount: number }): RollupRows {
  const acc = k().begin(spec);
  for (const p of pieces) if (p.time.length) acc.addSamples(p);
  return rollupRowsFromBuckets(acc.finishBuckets({ views: true }));
}

/** Whether times are in order and none is after `first` (a minute's check, when it closes). */
function inTimeOrderBefore(time: Float64Array, first: number): boolean {
  for (let i = 1; i < time.length; i++) if (time[i] < time[i - 1]) return false;
  return time.length === 0 || time[time.length - 1] <= first;
}

/** One pass over a session's new samples: their time span, whether in time order, the deepest hop. */
function scan(r: RawPending): Span {
  let first = Infinity;
  let last = -Infinity;
  let sorted = true;
  let hops = 1;
  let prev = -Infinity;
  const { time, hop } = r;
  for (let i = 0; i < time.length; i++) {
    const t = time[i];
    if (t < first) first = t;
    if (t > last) last = t;
    if (t < prev) sorted = false;
    prev = t;
    if (hop[i] > hops) hops = hop[i];
  }
  return { first, last, sorted, hops };
}

/** What a flush carries over for one session: its grids and what is not rolled up yet. */
export interface SessionCarry {
  sessionId: number;
  /** Per level, where it is closed; NaN until the session's first sample. */
  closedUntil: number[];
  maxTime: number;
  finishing: boolean;
  /** Raw samples not rolled up into the 1-minute level. */
  pending: RawPending;
  /** pendingRows[i]: rows of level i not rolled up into level i + 1. */
  pendingRows: RollupRows[];
}

export interface FlushTask {
  op: 'flush';
  batch: SampleBatch;
  /** Every session with samples in the batch, and every finishing one. */
  sessions: SessionCarry[];
}

export interface SessionFlush {
  sessionId: number;
  /** This flush's stored samples of the session, and their time span. */
  add: RawPending;
  first: number;
  last: number;
  /** Per level after this flush: where it is closed, its newly closed rows; what is left open. */
  closedUntil: number[];
  rows: RollupRows[];
  pending: RawPending;
  pendingRows: RollupRows[];
}

export interface FlushResult {
  batch: SampleBatch;
  dropped: number;
  sessions: SessionFlush[];
}

/**
 * The batch's rows of each session, in one pass to count and one to place: views into the
 * batch when each session's rows are one run (a flush of live rounds), copies when they are
 * interleaved (a backfill). A scan of the whole batch per session cost sessions x rows, which a
 * backlog of 1,000 sessions' rounds (200 agents starting at once) made seconds per flush; lists
 * of indices copied out with Float64Array.from were a third of a small flush's work (bench:agents).
 */
function rowsBySession(batch: SampleBatch): Map<number, RawPending> {
  const runs = new Map<number, { start: number; count: number }>();
  let oneRunEach = true;
  let last = NaN;
  for (let i = 0; i < batch.length; i++) {
    const sid = batch.session[i];
    const r = runs.get(sid);
    if (!r) runs.set(sid, { start: i, count: 1 });
    else {
      if (sid !== last) oneRunEach = false;
      r.count++;
    }
    last = sid;
  }
  const out = new Map<number, RawPending>();
  if (oneRunEach) {
    for (const [sid, { start, count }] of runs) {
      const end = start + count;
      out.set(sid, { time: batch.time.subarray(start, end), hop: batch.hop.subarray(start, end), latency: batch.latency.subarray(start, end) });
    }
    return out;
  }
  const at = new Map<number, { rows: RawPending; next: number }>();
  for (const [sid, { count }] of runs) {
    const rows = { time: new Float64Array(count), hop: new Int32Array(count), latency: new Float64Array(count) };
    out.set(sid, rows);
    at.set(sid, { rows, next: 0 });
  }
  for (let i = 0; i < batch.length; i++) {
    const a = at.get(batch.session[i])!;
    const k = a.next++;
    a.rows.time[k] = batch.time[i];
    a.rows.hop[k] = batch.hop[i];
    a.rows.latency[k] = batch.latency[i];
  }
  return out;
}

/**
 * Closes the 10-minute and 1-hour periods that the finer level has passed (all of them when
 * the session is finishing), from the finer level's rows left open and its new ones.
 */
function closeCoarserLevels(l: { closedUntil: number[]; rows: RollupRows[]; pendingRows: RollupRows[] }, finishing: boolean): void {
  for (let level = 1; level < RollupResolutionsMs.length; level++) {
    const res = RollupResolutionsMs[level];
    // Most flushes close no finer row: the open rows are kept as they are, not copied.
    const open = l.pendingRows[level - 1];
    const added = l.rows[level - 1];
    const feed = added.time.length === 0 ? open : open.time.length === 0 ? added : concatRollupRows([open, added]);
    const cut = finishing ? ceilTo(l.closedUntil[level - 1], res) : floorTo(l.closedUntil[level - 1], res);
    if (cut > l.closedUntil[level]) {
      const closing = sliceRollupRows(feed, l.closedUntil[level], cut);
      if (closing.time.length) l.rows[level] = rollup({ kind: 'rows', start: l.closedUntil[level], end: cut, resolution: res, rows: closing });
      l.pendingRows[level - 1] = sliceRollupRows(feed, cut, Infinity);
      l.closedUntil[level] = cut;
    } else {
      l.pendingRows[level - 1] = feed;
    }
  }
}

/**
 * One flush's work: validate the batch, then per session close the 1-minute periods that no
 * more samples can reach (15 s of grace; all of them when the session is finishing), roll
 * them up, and the 10-minute and 1-hour periods from those rows. Run by the worker for large
 * batches, on the caller's thread for small ones (pipeline.ts) and for bulk imports.
 */
export function prepareFlush(task: FlushTask): FlushResult {
  const { batch, dropped, single, span } = prepare(task.batch);
  const res = RollupResolutionsMs[0];
  const none: RawPending = { time: new Float64Array(0), hop: new Int32Array(0), latency: new Float64Array(0) };
  const bySession = Number.isNaN(single) && batch.length ? rowsBySession(batch) : undefined;
  const sessions: SessionFlush[] = task.sessions.map((c) => {
    // A batch of this session alone is used as it is, with the span prepare measured.
    const add = single === c.sessionId ? { time: batch.time, hop: batch.hop, latency: batch.latency } : (bySession?.get(c.sessionId) ?? none);
    const { first, last, sorted, hops } = single === c.sessionId ? span : scan(add);
    let closedUntil = Number.isNaN(c.closedUntil[0]) && add.time.length ? floorTo(first, res) : c.closedUntil[0];
    let pending: RawPending;
    let rows = NoRows;
    const maxTime = Math.max(c.maxTime, last);
    const cut = c.finishing ? ceilTo(maxTime + 1, res) : floorTo(maxTime - LateSampleGraceMs, res);
    if (Number.isNaN(closedUntil) || !Number.isFinite(maxTime) || !(cut > closedUntil)) {
      pending = appendRaw(c.pending, add);
    } else if (sorted && inTimeOrderBefore(c.pending.time, first)) {
      // The usual case: rounds in time order after the carried ones. The closing part is
      // rolled up from both pieces as they are, without first copying them into one.
      const [oldClosing, oldOpen] = splitRaw(c.pending, closedUntil, cut, true);
      const [newClosing, newOpen] = splitRaw(add, closedUntil, cut, true);
      if (oldClosing.time.length + newClosing.time.length) {
        const bucketCount = Math.max(1, Math.round((cut - closedUntil) / res));
        rows = rollupSamples([oldClosing, newClosing], { start: closedUntil, period: res, bucketCount, hopCount: Math.max(hops, maxHop(c.pending.hop)) });
      }
      pending = appendRaw(oldOpen, newOpen);
      closedUntil = cut;
    } else {
      const [closing, open] = splitRaw(appendRaw(c.pending, add), closedUntil, cut);
      if (closing.time.length) rows = rollup({ kind: 'samples', start: closedUntil, end: cut, resolution: res, ...closing });
      pending = open;
      closedUntil = cut;
    }
    // What is kept never views the batch (appendRaw copies what it appends): the pipeline reuses the batch's buffers.
    const levels = { closedUntil: [closedUntil, ...c.closedUntil.slice(1)], rows: [rows, ...c.pendingRows.map(() => NoRows)], pendingRows: [...c.pendingRows] };
    // A new session's coarser grids start where its first sample falls, as the 1-minute one.
    if (add.time.length) levels.closedUntil.forEach((t, level) => Number.isNaN(t) && (levels.closedUntil[level] = floorTo(first, RollupResolutionsMs[level])));
    if (!Number.isNaN(closedUntil)) closeCoarserLevels(levels, c.finishing);
    return { sessionId: c.sessionId, add, first, last, pending, ...levels };
  });
  return { batch, dropped, sessions };
}

/** The worker's task: prepareFlush, its answer's buffers moved back to the main thread without copying. */
export default function task(message: FlushTask) {
  const result = prepareFlush(message);
  const { batch, sessions } = result;
  const buffers = new Set<ArrayBufferLike>();
  const keep = (a: ArrayBufferView) => buffers.add(a.buffer);
  [batch.session, batch.time, batch.hop, batch.latency].forEach(keep);
  if (batch.stored) [batch.stored.time, batch.stored.hop, batch.stored.latency].forEach(keep);
  for (const s of sessions) {
    [s.add.time, s.add.hop, s.add.latency, s.pending.time, s.pending.hop, s.pending.latency].forEach(keep);
    for (const r of [...s.rows, ...s.pendingRows]) Object.values(r).forEach(keep);
  }
  return move({
    [transferableSymbol]: [...buffers].filter((b) => b.byteLength > 0),
    [valueSymbol]: result,
  });
}
