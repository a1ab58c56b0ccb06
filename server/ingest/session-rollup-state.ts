// Per-session rollup bookkeeping kept in memory by the ingest pipeline: what is closed at
// each resolution, and the rows not yet rolled up (raw samples for the 1-minute level,
// finer rollup rows for the coarser ones), and the closed rows not written yet. Its
// storedMarks mirror rollup_marks; everything is rebuilt from the store at start.
import { RollupResolutionsMs, floorTo } from '../rollups/levels.js';
import { emptyRollupRows, type RollupRows } from '../rollups/rows.js';
import type { RawColumns, RecentData } from '../rollups/recent-data.js';

/** Raw samples not rolled up yet: the columns the recent data keeps too. */
export type RawPending = RawColumns;

export class SessionRollupState {
  /** closedUntil per level; NaN until the first sample fixes the grid. */
  closedUntil: number[] = RollupResolutionsMs.map(() => NaN);
  /** closedUntil as rollup_marks holds it: the store has every closed row before it. */
  storedMarks: number[] = RollupResolutionsMs.map(() => NaN);
  /**
   * Per level, closed rows the store does not hold yet (between storedMarks and closedUntil):
   * rollup rows are written in groups, not with every flush (docs/store.md).
   */
  unwritten: RollupRows[][] = RollupResolutionsMs.map(() => []);
  raw: RawPending = { time: new Float64Array(0), hop: new Int32Array(0), latency: new Float64Array(0) };
  /** pendingRows[i] feeds level i + 1. */
  pendingRows: RollupRows[] = RollupResolutionsMs.slice(1).map(() => emptyRollupRows());
  maxTime = -Infinity;
  /** What queries read from memory; from the first commit (or the start) on. */
  recent: RecentData | undefined;
  /** When a query last asked for its recent data (IngestPipeline.recent): a console watching it. */
  readAt = -Infinity;
  /** Set when the session closes: everything is rolled up at the next flush. */
  finishing = false;

  anchor(firstTime: number): void {
    RollupResolutionsMs.forEach((res, i) => {
      if (Number.isNaN(this.closedUntil[i])) this.closedUntil[i] = floorTo(firstTime, res);
    });
  }
}

/** The least room appendRaw allocates, in samples (10 KB; it doubles from there as a session needs). */
const MinRawRoom = 512;

/**
 * `a` followed by `b`, as views of one growing buffer: written after `a` in place when its
 * buffer has room there, else into a new buffer with as much room again (only `a` and `b` are
 * copied, not what lies before `a`). Copying a session's whole pending samples at every flush
 * made the minute's copies quadratic in its rounds: with 1,000 sessions at 1 s the largest part
 * of a flush's preparation, and of the garbage (bench:agents). Safe because a pending view is
 * only ever extended by the flush that follows it: a view made by a flush that failed is
 * dropped, and the next flush writes over the same room. Never returns views of `b`.
 */
export function appendRaw(a: RawPending, b: RawPending): RawPending {
  const n = a.time.length + b.time.length;
  const at = a.time.byteOffset / Float64Array.BYTES_PER_ELEMENT;
  const room = a.time.buffer.byteLength / Float64Array.BYTES_PER_ELEMENT;
  const inPlace =
    a.time.length > 0 &&
    at + n <= room &&
    a.hop.byteOffset / Int32Array.BYTES_PER_ELEMENT === at &&
    a.latency.byteOffset / Float64Array.BYTES_PER_ELEMENT === at &&
    a.hop.buffer.byteLength / Int32Array.BYTES_PER_ELEMENT === room &&
    a.latency.buffer.byteLength / Float64Array.BYTES_PER_ELEMENT === room;
  if (inPlace) {
    const time = new Float64Array(a.time.buffer, a.time.byteOffset, n);
    const hop = new Int32Array(a.hop.buffer, a.hop.byteOffset, n);
    const latency = new Float64Array(a.latency.buffer, a.latency.byteOffset, n);
    time.set(b.time, a.time.length);
    hop.set(b.hop, a.time.length);
    latency.set(b.latency, a.time.length);
    return { time, hop, latency };
  }
  const size = Math.max(MinRawRoom, 2 * n);
  const out = { time: new Float64Array(size), hop: new Int32Array(size), latency: new Float64Array(size) };
  out.time.set(a.time);
  out.hop.set(a.hop);
  out.latency.set(a.latency);
  out.time.set(b.time, a.time.length);
  out.hop.set(b.hop, a.time.length);
  out.latency.set(b.latency, a.time.length);
  return { time: out.time.subarray(0, n), hop: out.hop.subarray(0, n), latency: out.latency.subarray(0, n) };
}

/**
 * Splits raw rows at `cut`: [rows with from <= time < cut, rows with time >= cut].
 * `inOrder`: the caller knows the rows are in time order (spares a pass over them).
 */
export function splitRaw(r: RawPending, from: number, cut: number, inOrder = false): [RawPending, RawPending] {
  const n = r.time.length;
  let sorted = true;
  if (!inOrder) for (let i = 1; i < n && sorted; i++) if (r.time[i] < r.time[i - 1]) sorted = false;
  if (sorted) {
    // Rounds arrive in time order: two binary searches and views, no copying.
    const lowerBound = (t: number) => {
      let lo = 0;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (r.time[mid] < t) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    const a = lowerBound(from);
    const b = lowerBound(cut);
    const view = (x: number, y: number): RawPending => ({ time: r.time.subarray(x, y), hop: r.hop.subarray(x, y), latency: r.latency.subarray(x, y) });
    return [view(a, b), view(b, n)];
  }
  const lo: number[] = [];
  const hi: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = r.time[i];
    if (t >= cut) hi.push(i);
    else if (t >= from) lo.push(i); // earlier than the closed grid: raw only (late sample)
  }
  const pick = (idx: number[]): RawPending => ({
    time: Float64Array.from(idx, (i) => r.time[i]),
    hop: Int32Array.from(idx, (i) => r.hop[i]),
    latency: Float64Array.from(idx, (i) => r.latency[i]),
  });
  return [pick(lo), pick(hi)];
}
