// batchesOf: DuckDB's result chunks become prepareFlush batches of a given size, the values
// copied in order across chunk and batch edges, the time span seen, and a refused value
// stops the batches (the import then names what is wrong and writes nothing).
import { describe, expect, it } from 'vitest';
import { LatencyCode } from '../../engine/latency-codes.js';
import { appendParts, batchesOf, slicesOf } from './bulk-import.js';
import { emptyRollupRows } from '../rollups/rows.js';

/** n rows in chunks of the given sizes: time 1000 + i, hop i % 30, latency i / 8. */
function chunks(sizes: number[]) {
  let i = 0;
  return sizes.map((k) => {
    const t = new Float64Array(k);
    const h = new Int32Array(k);
    const l = new Float64Array(k);
    for (let j = 0; j < k; j++, i++) (t[j] = 1000 + i), (h[j] = i % 30), (l[j] = i / 8);
    return [t, h, l];
  });
}

describe('batchesOf', () => {
  it('copies every value in order into batches of the step size across chunk edges', () => {
    const seen = { first: Infinity, last: -Infinity };
    const batches = [...batchesOf(chunks([2048, 2048, 100, 2048, 7]), 9, seen, 1000)];
    const total = 2048 * 3 + 100 + 7;
    expect(batches.map((b) => b!.length)).toEqual([...Array(6).fill(1000), total - 6000]);
    const time = batches.flatMap((b) => [...b!.time]);
    expect(time).toEqual(Array.from({ length: total }, (_, i) => 1000 + i));
    expect(batches.flatMap((b) => [...b!.hop])).toEqual(Array.from({ length: total }, (_, i) => i % 30));
    expect(batches.flatMap((b) => [...b!.latency])).toEqual(Array.from({ length: total }, (_, i) => i / 8));
    expect(batches.every((b) => b!.session.length === b!.length && b!.session.every((s) => s === 9))).toBe(true);
    expect(seen).toEqual({ first: 1000, last: 1000 + total - 1 });
  });

  it('answers nothing for no rows', () => {
    expect([...batchesOf([], 1, { first: Infinity, last: -Infinity })]).toEqual([]);
  });

  it('keeps the codes and stops at a value the checks refuse', () => {
    const c = chunks([10, 10]);
    c[0][2][3] = LatencyCode.Timeout;
    expect([...batchesOf(c, 1, { first: Infinity, last: -Infinity }, 5)].map((b) => b?.length ?? null)).toEqual([5, 5, 5, 5]);
    // [chunk, column (0 time, 1 hop, 2 latency), row, value]
    const refused = [[1, 2, 4, -7], [1, 2, 5, NaN], [0, 1, 6, 1.5], [0, 1, 7, 256], [1, 1, 8, -1], [0, 0, 1, -5], [1, 0, 9, Infinity]] as const;
    for (const [chunk, column, row, value] of refused) {
      // Hops as DOUBLE (a file whose hop column is not SMALLINT): a fraction reaches the check.
      const d = chunks([10, 10]).map(([t, h, l]) => [t, Float64Array.from(h), l]);
      d[chunk][column][row] = value;
      const out = [...batchesOf(d, 1, { first: Infinity, last: -Infinity }, 5)];
      expect(out.at(-1), `${column} ${value}`).toBeNull();
      expect(out.length).toBe(chunk * 2 + (row < 5 ? 1 : 2));
    }
  });
});

describe('slicesOf', () => {
  it('gathers whole row groups up to the slice size, and cuts a larger group in pieces of it', () => {
    expect(slicesOf([3, 3, 3, 0, 2], 6)).toEqual([{ from: 0, to: 6 }, { from: 6, to: 11 }]);
    expect(slicesOf([2, 13, 1], 6)).toEqual([{ from: 0, to: 2 }, { from: 2, to: 8 }, { from: 8, to: 14 }, { from: 14, to: 16 }]);
    expect(slicesOf([])).toEqual([]);
  });
});

describe('appendParts', () => {
  const set = (resolution: number, times: number[]) => {
    const rows = emptyRollupRows(times.length);
    rows.time.set(times);
    return { resolution, sessionId: 1, rows };
  };
  it('cuts the sets into appends of at most the given rows, every row once, in order', () => {
    const sets = [set(60_000, [1, 2, 3, 4, 5, 6, 7]), set(600_000, [8, 9]), set(3_600_000, [10])];
    const parts = appendParts(sets, 3);
    expect(parts.map((p) => p.reduce((n, s) => n + s.rows.time.length, 0))).toEqual([3, 3, 3, 1]);
    const flat = parts.flat();
    expect(flat.flatMap((s) => [...s.rows.time])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(flat.map((s) => s.resolution)).toEqual([60_000, 60_000, 60_000, 600_000, 3_600_000]);
    // Every column cut alike.
    expect(flat.every((s) => Object.values(s.rows).every((c) => (c as ArrayLike<number>).length === s.rows.time.length))).toBe(true);
    expect(appendParts([])).toEqual([]);
  });
});
