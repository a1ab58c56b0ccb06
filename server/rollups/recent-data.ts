// The recent data of one open session, kept in memory by the ingest pipeline as it commits:
// raw samples of the last RecentRawMs and the rollup rows of each level over its window.
// Queries read these instead of DuckDB (no SQL, no row conversion: views straight into the
// kernel), and fall back to DuckDB before the coverage start. Coverage starts where the
// pipeline's memory of the session starts (at server start: the rollup marks), and moves
// forward as the windows trim.
import { RollupResolutionsMs } from './levels.js';
import { ColumnLog } from './column-log.js';
import { emptyRollupRows, type RollupRows } from './rows.js';

/** Raw samples kept: covers the console's default 10-minute view with room to spare. */
export const RecentRawMs = 30 * 60_000;
/** Rollup rows kept per level (1 min, 10 min, 1 h): a 24-hour view, a 7-day view. */
export const RecentRowsMs = [25 * 3_600_000, 8 * 86_400_000, 8 * 86_400_000] as const;

/** Raw samples of one session as columns. */
export type RawColumns = { time: Float64Array; hop: Int32Array; latency: Float64Array };
type RowColumns = RollupRows & Record<string, Float64Array | Int32Array>;

const rawLog = () => new ColumnLog<RawColumns>((n) => ({ time: new Float64Array(n), hop: new Int32Array(n), latency: new Float64Array(n) }));
const rowsLog = () => new ColumnLog<RowColumns>((n) => emptyRollupRows(n) as RowColumns);

/** What a query may read from memory for one session. */
export interface RecentView {
  /**
   * Closed-until per level as committed in memory; -Infinity when none. The store's marks
   * may lag behind (rows are written in groups), never ahead; what lies before rowsFrom is
   * in the store.
   */
  marks: number[];
  /** Every committed sample with time >= rawFrom is in memory. */
  rawFrom: number;
  /** Per level: every closed rollup row with time >= rowsFrom[level] is in memory. */
  rowsFrom: number[];
  samples(from: number, to: number): RawColumns;
  rows(level: number, from: number, to: number): RollupRows;
}

export class RecentData implements RecentView {
  marks: number[] = RollupResolutionsMs.map(() => -Infinity);
  rawFrom: number;
  rowsFrom: number[];
  private readonly raw = rawLog();
  private readonly levels = RollupResolutionsMs.map(() => rowsLog());

  /**
   * Starts covering raw samples from `rawFrom` and rows of each level from `rowsFrom`
   * (-Infinity or NaN: from the beginning), with what the store already holds there:
   * `raw` parts and `rows` per level, each in time order, parts in time order.
   */
  constructor(init: { rawFrom: number; rowsFrom: number[]; marks: number[]; raw?: RawColumns[]; rows?: RollupRows[] }) {
    const from = (t: number) => (Number.isNaN(t) ? -Infinity : t);
    this.rowsFrom = init.rowsFrom.map(from);
    this.rawFrom = from(init.rawFrom);
    this.marks = init.marks.map(from);
    for (const part of init.raw ?? []) this.raw.append(part, part.time.length);
    (init.rows ?? []).forEach((r, level) => this.levels[level].append(r as RowColumns, r.time.length));
  }

  /**
   * Records one committed flush: its samples, the rows it closed, the marks it moved.
   * `stored`: per level, the store holds every row before it (NaN: none). Rows from there on
   * are kept past their window until they are written, so that whatever a query cannot
   * find here is in the store.
   */
  commit(samples: RawColumns, rows: RollupRows[], marks: number[], latest: number, stored: number[]): void {
    // Samples the trim below would drop are not copied in (a flush may carry hours of them).
    const rawCut = latest - RecentRawMs;
    this.raw.appendSince(samples, samples.time.length, Number.isFinite(latest) && rawCut > this.rawFrom ? rawCut : -Infinity);
    rows.forEach((r, level) => this.levels[level].append(r as RowColumns, r.time.length));
    this.marks = marks.map((m) => (Number.isNaN(m) ? -Infinity : m));
    if (!Number.isFinite(latest)) return;
    if (rawCut > this.rawFrom) {
      this.raw.trimBefore(rawCut);
      this.rawFrom = rawCut;
    }
    RecentRowsMs.forEach((span, level) => {
      const cut = Math.min(latest - span, Number.isNaN(stored[level]) ? -Infinity : stored[level]);
      if (cut > this.rowsFrom[level]) {
        this.levels[level].trimBefore(cut);
        this.rowsFrom[level] = cut;
      }
    });
  }

  samples(from: number, to: number): RawColumns {
    return this.raw.slice(from, to);
  }

  rows(level: number, from: number, to: number): RollupRows {
    return this.levels[level].slice(from, to);
  }
}
