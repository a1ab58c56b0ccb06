// The reads of samples and rollup rows on PostgreSQL, returning what the DuckDB reads of
// server/data/sources.ts return for the same rows (the kernels' inputs): raw samples in time,
// then hop order, latencies in ms or their codes; rollup rows as stored, converted by the same
// functions (rows.ts rowsFromStoredColumns, leanRowsFromStoredColumns), or reduced onto a grid
// as sql.ts rollupReduceColumns does in DuckDB, here in JS over the decoded integers (the same
// sums of the same integers, divided by 1000 once). Blocks and plain rows are merged, so an
// answer does not depend on how far the packer got.
import type { Pool, PoolClient } from 'pg';

/** What the reads need of a connection: the pool, or a client a work holds (its snapshot). */
export type PgReader = Pick<Pool | PoolClient, 'query'>;
import { RollupRowColumns, type RollupColumn } from '../../rollups/columns.js';
import { leanRowsFromStoredColumns, rowsFromColumns, rowsFromStoredColumns, type RollupRows } from '../../rollups/rows.js';
import { latencyFromMicros } from '../latency-micros.js';
import { RollupBlockColumns, decodeRollupBlock, decodeRollupBlockInto, decodeSampleBlock, roundSamples } from './blocks.js';
import { SampleBlockPeriod, SampleBlocks, SampleRounds, rollupLevel } from './samples-schema.js';

/** Raw samples as the kernels take them (sources.ts readSamples). */
export interface SampleRead {
  length: number;
  time: Float64Array;
  hop: Int32Array;
  latency: Float64Array;
}

const floorTo = (t: number, step: number) => Math.floor(t / step) * step;
/** The latest time a Date can hold: a bound of Infinity ("everything after") as a bigint parameter. */
const MaxTime = 8.64e15;
const bounded = (t: number) => Math.max(-MaxTime, Math.min(MaxTime, t));

/**
 * The permutation that orders runs (contiguous in `time`, given by their starts, each in time
 * order) by time, stably: on equal times the earlier run first. Runs laid out in hop order
 * therefore come out in time, then hop order. Bottom-up merges of neighbouring runs.
 */
export function mergeRuns(time: ArrayLike<number>, starts: number[], n: number): Uint32Array {
  let perm = new Uint32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  let bounds = [...starts.filter((s) => s < n), n];
  if (bounds[0] !== 0) bounds.unshift(0);
  let spare = new Uint32Array(n);
  while (bounds.length > 2) {
    const next = [0];
    for (let r = 0; r + 1 < bounds.length; r += 2) {
      const a0 = bounds[r];
      const a1 = bounds[r + 1];
      const b1 = r + 2 < bounds.length ? bounds[r + 2] : a1;
      let i = a0;
      let j = a1;
      let o = a0;
      while (i < a1 && j < b1) spare[o++] = time[perm[j]] < time[perm[i]] ? perm[j++] : perm[i++];
      while (i < a1) spare[o++] = perm[i++];
      while (j < b1) spare[o++] = perm[j++];
      next.push(b1);
    }
    [perm, spare] = [spare, perm];
    bounds = next;
  }
  return perm;
}

/** The samples of [from, to) of a session from blocks and round rows, in time, then hop order. */
export async function readSamples(pool: PgReader, sessionId: number, fromTime: number, toTime: number): Promise<SampleRead> {
  const from = bounded(fromTime);
  const to = bounded(toTime);
  // Blocks and round rows in one statement: one snapshot. Two statements could see a pack
  // between them (its blocks not yet, its deleted rows no more) and miss those samples.
  const { rows: found } = await pool.query({
    text: `(SELECT hop, n, data, NULL::float8 AS time, NULL::bytea AS hops, NULL::bytea AS latencies FROM ${SampleBlocks.name}
              WHERE session_id = $1 AND period >= $2 AND period < $3 AND last_time >= $4 AND first_time < $3 ORDER BY hop, first_time)
           UNION ALL
           (SELECT NULL, NULL, NULL, time::float8, hops, latencies FROM ${SampleRounds.name} WHERE session_id = $1 AND time >= $4 AND time < $3 ORDER BY time)`,
    values: [sessionId, floorTo(from, SampleBlockPeriod), to, from],
    rowMode: 'array',
  });
  const blocks = { rows: found.filter((r) => r[0] !== null).map((r) => r.slice(0, 3)) };
  const rounds = { rows: found.filter((r) => r[0] === null).map((r) => r.slice(3)) };
  // Per hop: the block samples in range, then the plain ones.
  const byHop = new Map<number, { time: number[]; latency: number[] }>();
  const run = (hop: number) => {
    let r = byHop.get(hop);
    if (!r) byHop.set(hop, (r = { time: [], latency: [] }));
    return r;
  };
  for (const [hop, n, data] of blocks.rows as [number, number, Buffer][]) {
    const b = decodeSampleBlock(data, n);
    const r = run(hop);
    for (let i = 0; i < n; i++) {
      const t = b.time[i];
      if (t >= from && t < to) {
        r.time.push(t);
        r.latency.push(b.latency[i]);
      }
    }
  }
  for (const [time, hops, latencies] of rounds.rows as [number, Buffer, Buffer][]) {
    const s = roundSamples(hops, latencies);
    for (let i = 0; i < s.hop.length; i++) {
      const r = run(s.hop[i]);
      r.time.push(time);
      r.latency.push(s.latency[i]);
    }
  }
  let n = 0;
  for (const r of byHop.values()) n += r.time.length;
  const time = new Float64Array(n);
  const hop = new Int32Array(n);
  const latency = new Float64Array(n);
  const starts: number[] = [];
  let at = 0;
  for (const h of [...byHop.keys()].sort((a, b) => a - b)) {
    const r = byHop.get(h)!;
    starts.push(at);
    // A hop's run in time order (blocks by first time, plain rows after: sorted unless a late
    // round's block or row lies before another's samples).
    const idx = r.time.map((_, i) => i);
    if (!idx.every((i) => i === 0 || r.time[i] >= r.time[i - 1])) idx.sort((a, b) => r.time[a] - r.time[b] || a - b);
    for (const i of idx) {
      time[at] = r.time[i];
      hop[at] = h;
      latency[at] = r.latency[i];
      at++;
    }
  }
  const perm = mergeRuns(time, starts, n);
  const out: SampleRead = { length: n, time: new Float64Array(n), hop: new Int32Array(n), latency: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    const p = perm[i];
    out.time[i] = time[p];
    out.hop[i] = hop[p];
    out.latency[i] = latencyFromMicros(latency[p]);
  }
  return out;
}

/**
 * The order of rows a read returns: time, then hop (as DuckDB's ORDER BY time, hop), or hop,
 * then time (each hop's rows in time order: all the kernels need, and cheaper: see hopOrder).
 */
export type RowOrder = 'time' | 'hop';

/** Which rows of a level a read wants: every hop with every column, or one hop, or every hop's lean columns. */
export type RollupSelection = { kind: 'all' } | { kind: 'hop'; hop: number } | { kind: 'lean' };

const timeIndex = RollupRowColumns.findIndex((c) => c.key === 'time');
const hopIndex = RollupRowColumns.findIndex((c) => c.key === 'hop');
const plainSelect = RollupRowColumns.map((c) => ('micros' in c && c.micros === 'sum') || c.key === 'time' ? `${c.sql}::float8` : c.sql).join(', ');
const LeanColumns = RollupRowColumns.map((c, i) => ('lean' in c ? i : -1)).filter((i) => i >= 0);
const rowIndexOfBlock = RollupBlockColumns.map((c) => RollupRowColumns.findIndex((x) => x.key === c.key));
/** The row columns memory keeps as Int32Array (rows.ts fromStored: not float, not micros). */
const IntColumns = new Set(RollupRowColumns.map((c, k) => (!('micros' in c) && (c.type === 'INTEGER' || c.type === 'SMALLINT') && !c.nullable ? k : -1)).filter((k) => k >= 0));

/**
 * The stored columns (RollupRowColumns order, as stored: integer micros, NaN for NULL) of a
 * level's rows in [from, to), in time, then hop order; with `lean` only the lean columns are
 * filled (the others stay empty).
 */
async function storedColumns(pool: PgReader, resolution: number, sessionId: number, fromTime: number, toTime: number, sel: RollupSelection, order: RowOrder = 'time'): Promise<Float64Array[]> {
  const from = bounded(fromTime);
  const to = bounded(toTime);
  const level = rollupLevel(resolution);
  if (!(to > from)) return RollupRowColumns.map(() => new Float64Array(0));
  // Blocks and plain rows in one statement (one snapshot, see readSamples): a block row carries
  // its hop, n and data and NULL for the row columns; a plain row NULL for those three.
  const rowNulls = RollupRowColumns.map(() => 'NULL').join(', ');
  const { rows: found } = await pool.query({
    text: `(SELECT hop, n, data, ${sel.kind === 'lean' ? 'NULL::bytea' : 'detail'}, ${rowNulls} FROM ${level.blocks}
              WHERE resolution = $1 AND session_id = $2 AND period >= $5 AND period < $4 AND last_time >= $3 AND first_time < $4${sel.kind === 'hop' ? ' AND hop = $6' : ''}
              ORDER BY hop, first_time)
           UNION ALL
           (SELECT NULL, NULL, NULL, NULL, ${plainSelect} FROM ${level.rows}
              WHERE resolution = $1 AND session_id = $2 AND time >= $3 AND time < $4${sel.kind === 'hop' ? ' AND hop = $6' : ''} ORDER BY hop, time)`,
    values: [resolution, sessionId, from, to, floorTo(from, level.blockPeriod), ...(sel.kind === 'hop' ? [sel.hop] : [])],
    rowMode: 'array',
  });
  const width = RollupRowColumns.length;
  const filled = sel.kind === 'lean' ? LeanColumns : RollupRowColumns.map((_, k) => k);
  if (order === 'hop') return hopOrder(found, from, to, filled);
  const blocks = { rows: found.filter((r) => r[2] !== null).map((r) => r.slice(0, 4)) };
  const plain = { rows: found.filter((r) => r[2] === null).map((r) => r.slice(4)) };
  // Pieces of columns, each of one hop and in time order: the rows in range of a block (a
  // contiguous run: a block is in time order), or a hop's plain rows. Blocks come by hop.
  type Part = { hop: number; cols: (ArrayLike<number> | undefined)[]; a: number; b: number };
  const partList: Part[] = [];
  for (const [hop, n, data, detail] of blocks.rows as [number, number, Buffer, Buffer | null][]) {
    const decoded = decodeRollupBlock(data, detail, n);
    const cols: (ArrayLike<number> | undefined)[] = new Array(width);
    decoded.forEach((c, k) => (cols[rowIndexOfBlock[k]] = c));
    const time = cols[timeIndex]!;
    let a = 0;
    while (a < n && time[a] < from) a++;
    let b = n;
    while (b > a && time[b - 1] >= to) b--;
    if (b > a) partList.push({ hop, cols, a, b });
  }
  const rows = plain.rows as (number | null)[][];
  for (let i = 0; i < rows.length; ) {
    const hop = rows[i][hopIndex] as number;
    let j = i + 1;
    while (j < rows.length && rows[j][hopIndex] === hop) j++;
    const cols: Float64Array[] = [];
    for (let k = 0; k < width; k++) {
      const c = new Float64Array(j - i);
      for (let x = i; x < j; x++) c[x - i] = rows[x][k] ?? NaN;
      cols.push(c);
    }
    partList.push({ hop, cols, a: 0, b: j - i });
    i = j;
  }
  // Hop order, blocks before plain rows within a hop (a stable sort keeps that).
  partList.sort((x, y) => x.hop - y.hop);
  let n = 0;
  for (const p of partList) n += p.b - p.a;
  const out = Array.from({ length: width }, () => new Float64Array(n));
  // Time, then hop order. Rows of a level lie on its grid (times are multiples of the
  // resolution), so a counting sort by grid slot, filled in hop order, orders them in one pass;
  // rows off the grid (none are written) would be merged instead.
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of partList) {
    const t = p.cols[timeIndex]!;
    for (let i = p.a; i < p.b; i++) {
      if (t[i] < lo) lo = t[i];
      if (t[i] > hi) hi = t[i];
    }
  }
  const base = floorTo(lo, resolution);
  const slots = n ? Math.floor((hi - base) / resolution) + 1 : 0;
  let onGrid = slots <= 4 * n + 1_000_000;
  const starts = new Int32Array(onGrid ? slots + 1 : 0);
  for (const p of partList) {
    const t = p.cols[timeIndex]!;
    for (let i = p.a; i < p.b && onGrid; i++) {
      const slot = (t[i] - base) / resolution;
      if (slot >= 0 && slot < slots && Number.isInteger(slot)) starts[slot + 1]++;
      else onGrid = false;
    }
  }
  if (onGrid) {
    for (let k = 1; k <= slots; k++) starts[k] += starts[k - 1];
    // Column by column (one typed loop each): row by row over every column cost 80 ms for a
    // day of 30 hops' lean columns.
    for (const p of partList) {
      const t = p.cols[timeIndex] as Float64Array;
      const m = p.b - p.a;
      const pos = new Int32Array(m);
      for (let i = 0; i < m; i++) pos[i] = starts[(t[p.a + i] - base) / resolution]++;
      for (const k of filled) {
        const dst = out[k];
        if (k === hopIndex) {
          for (let i = 0; i < m; i++) dst[pos[i]] = p.hop;
          continue;
        }
        const src = p.cols[k] as Float64Array;
        for (let i = 0; i < m; i++) dst[pos[i]] = src[p.a + i];
      }
    }
    return out;
  }
  const runStarts: number[] = [];
  let at = 0;
  let lastHop = -1;
  for (const p of partList) {
    if (p.hop !== lastHop) runStarts.push(at);
    const begin = p.hop !== lastHop ? at : runStarts[runStarts.length - 1];
    lastHop = p.hop;
    for (let i = p.a; i < p.b; i++, at++) for (const k of filled) out[k][at] = k === hopIndex ? p.hop : p.cols[k]![i];
    sortRange(out, filled, begin, at);
  }
  const perm = mergeRuns(out[timeIndex], runStarts, n);
  return out.map((c, k) => {
    if (!filled.includes(k)) return c;
    const sorted = new Float64Array(n);
    for (let i = 0; i < n; i++) sorted[i] = c[perm[i]];
    return sorted;
  });
}

/**
 * The rows of storedColumns' statement in hop, then time order: each block decoded straight
 * into the output columns (no arrays of its own, no reordering), its rows outside [from, to)
 * cut off, a hop's plain rows after its blocks. The kernels need no more: a rollup row lands
 * in the cell of its bucket and hop, and each cell's rows come in time order (accumulate.ts
 * accumulateRollups: "in time order per hop"), so their answer is the one of time order,
 * bit for bit. Measured (a day of 30 hops' lean 1-minute rows, 750 blocks): the time order's
 * reordering and its per-block arrays were most of the read's time in JS.
 */
function hopOrder(found: unknown[][], from: number, to: number, filled: readonly number[]): Float64Array[] {
  let cap = 0;
  for (const r of found) cap += r[2] !== null ? (r[1] as number) : 1;
  // Whole-number columns (hop, counts, flags) straight into the Int32Arrays the rows keep
  // (rows.ts asInt32 then takes them as they are: no copy).
  const out = RollupRowColumns.map((c, k) => (!filled.includes(k) ? new Float64Array(0) : IntColumns.has(k) ? new Int32Array(cap) : new Float64Array(cap))) as unknown as Float64Array[];
  const blockOut = rowIndexOfBlock.map((k) => (filled.includes(k) ? out[k] : undefined));
  const time = out[timeIndex];
  const hops = out[hopIndex];
  let at = 0;
  let hopStart = 0;
  let lastHop = NaN;
  const endHop = () => {
    if (at > hopStart) sortRange(out, filled as number[], hopStart, at);
    hopStart = at;
  };
  // The statement returns blocks (by hop, first time), then plain rows (by hop, time): a hop's
  // plain rows are put after its blocks by a second pass over the hops.
  const blockRows = found.filter((r) => r[2] !== null) as [number, number, Buffer, Buffer | null][];
  const plainRows = found.filter((r) => r[2] === null).map((r) => r.slice(4)) as (number | null)[][];
  let p = 0;
  let b = 0;
  while (b < blockRows.length || p < plainRows.length) {
    const hop = b < blockRows.length && (p >= plainRows.length || blockRows[b][0] <= (plainRows[p][hopIndex] as number)) ? blockRows[b][0] : (plainRows[p][hopIndex] as number);
    if (hop !== lastHop) {
      endHop();
      lastHop = hop;
    }
    for (; b < blockRows.length && blockRows[b][0] === hop; b++) {
      const [, n, data, detail] = blockRows[b];
      decodeRollupBlockInto(data, detail, n, blockOut, at);
      let lo = 0;
      while (lo < n && time[at + lo] < from) lo++;
      let hi = n;
      while (hi > lo && time[at + hi - 1] >= to) hi--;
      if (lo > 0) for (const k of filled) if (k !== hopIndex) out[k].copyWithin(at, at + lo, at + hi);
      hops.fill(hop, at, at + hi - lo);
      at += hi - lo;
    }
    for (; p < plainRows.length && plainRows[p][hopIndex] === hop; p++, at++) for (const k of filled) out[k][at] = plainRows[p][k] ?? NaN;
  }
  endHop();
  return at === cap ? out : out.map((c) => (c.length ? c.subarray(0, at) : c));
}

/** Sorts rows [a, b) of the columns by time (stable) when they are not in time order. */
function sortRange(cols: Float64Array[], filled: number[], a: number, b: number): void {
  const t = cols[timeIndex];
  let sorted = true;
  for (let i = a + 1; i < b && sorted; i++) sorted = t[i] >= t[i - 1];
  if (sorted) return;
  const idx = Array.from({ length: b - a }, (_, i) => a + i).sort((x, y) => t[x] - t[y] || x - y);
  for (const k of filled) {
    const copy = idx.map((i) => cols[k][i]);
    cols[k].set(copy, a);
  }
}

/**
 * A level's rows of [from, to) as sources.ts readStored gives them (every column, or one hop's,
 * or the lean columns of all), converted by the same functions.
 */
export async function readStoredRollups(pool: PgReader, resolution: number, sessionId: number, from: number, to: number, sel: RollupSelection = { kind: 'all' }, order: RowOrder = 'time'): Promise<RollupRows> {
  const cols = await storedColumns(pool, resolution, sessionId, from, to, sel, order);
  return sel.kind === 'lean' ? leanRowsFromStoredColumns(LeanColumns.map((k) => cols[k])) : rowsFromStoredColumns(cols);
}

/** A grid the rows are reduced onto: buckets start at start + k * period. */
export interface ReduceGrid {
  start: number;
  period: number;
}

/**
 * A level's rows of [from, to) reduced onto the grid: one row per bucket and hop, in bucket,
 * then hop order, each column merged as sql.ts rollupReduceColumns merges it in DuckDB (sums
 * of the stored integers, extremes, the earliest / latest value that is not NULL, OR of the
 * bits), then read as ms as it reads them. Jitter likewise: the pair that straddles two rows
 * is not counted, as there.
 */
export async function readReducedRollups(pool: PgReader, resolution: number, sessionId: number, from: number, to: number, grid: ReduceGrid): Promise<RollupRows> {
  // Hop order: a cell's rows still come in time order (its first row its earliest); cells are sorted after.
  const cols = await storedColumns(pool, resolution, sessionId, from, to, { kind: 'all' }, 'hop');
  const time = cols[timeIndex];
  const hop = cols[hopIndex];
  const n = time.length;
  // Cells by (bucket start, hop); rows come in time order, so the first row of a cell is its earliest.
  const cells = new Map<string, number>();
  const place: { t: number; hop: number }[] = [];
  const merged: number[][] = [];
  const stats = RollupRowColumns.map((c, k) => ({ c: c as RollupColumn, k })).filter((x) => !x.c.place);
  for (let i = 0; i < n; i++) {
    const t = grid.start + Math.floor((time[i] - grid.start) / grid.period) * grid.period;
    const key = `${t}:${hop[i]}`;
    let cell = cells.get(key);
    if (cell === undefined) {
      cells.set(key, (cell = place.length));
      place.push({ t, hop: hop[i] });
      merged.push(stats.map(({ c }) => (c.merge === 'sum' || c.merge === 'bitOr' ? 0 : NaN)));
    }
    const m = merged[cell];
    stats.forEach(({ c, k }, s) => {
      const v = cols[k][i];
      if (Number.isNaN(v)) return; // NULL: the aggregates skip it
      const cur = m[s];
      switch (c.merge) {
        case 'sum':
          m[s] = cur + v;
          break;
        case 'min':
          if (Number.isNaN(cur) || v < cur) m[s] = v;
          break;
        case 'max':
          if (Number.isNaN(cur) || v > cur) m[s] = v;
          break;
        case 'earliest':
          if (Number.isNaN(cur)) m[s] = v;
          break;
        case 'latest':
          m[s] = v;
          break;
        case 'bitOr':
          m[s] = cur | v;
          break;
      }
    });
  }
  const order = place.map((_, i) => i).sort((a, b) => place[a].t - place[b].t || place[a].hop - place[b].hop);
  const out: number[][] = RollupRowColumns.map(() => new Array(order.length));
  order.forEach((cell, o) => {
    out[timeIndex][o] = place[cell].t;
    out[hopIndex][o] = place[cell].hop;
    stats.forEach(({ c, k }, s) => (out[k][o] = asRead(c, merged[cell][s])));
  });
  return rowsFromColumns(out.map((c) => Float64Array.from(c)));
}

/** A merged stored value as sql.ts asRead reads it. */
function asRead(c: RollupColumn, v: number): number {
  if (Number.isNaN(v)) return v;
  if (c.micros === 'latency') return latencyFromMicros(v);
  if (c.micros === 'sum' || c.micros === 'measurement') return v / 1000;
  return v;
}
