import { describe, expect, it } from 'vitest';
import { emptyRollupRows, inTimeOrder, partsInTimeOrder, rowsFromColumns } from './rows.js';

describe('rollup rows from the store', () => {
  it('takes the numeric columns in RollupSelectColumns order, integers as Int32Array', () => {
    const c = Array.from({ length: 13 }, (_, k) => Float64Array.of(k, k + 0.5));
    const r = rowsFromColumns(c);
    expect([...r.time]).toEqual([0, 0.5]);
    expect(r.hop).toBeInstanceOf(Int32Array);
    expect([...r.hop]).toEqual([1, 1]);
    expect([...r.flags]).toEqual([12, 12]);
    expect([...r.last]).toEqual([11, 11.5]);
  });

  it('leaves rows in time order as they are and sorts others stably', () => {
    const rows = emptyRollupRows(4);
    rows.time.set([120, 60, 120, 60]);
    rows.hop.set([1, 1, 2, 2]);
    rows.count.set([10, 20, 30, 40]);
    const sorted = inTimeOrder(rows);
    expect([...sorted.time]).toEqual([60, 60, 120, 120]);
    expect([...sorted.hop]).toEqual([1, 2, 1, 2]);
    expect([...sorted.count]).toEqual([20, 40, 10, 30]);
    expect(inTimeOrder(sorted)).toBe(sorted);
  });

  it('keeps chunks that follow each other in time, and merges and sorts those that do not', () => {
    const part = (times: number[]) => {
      const r = emptyRollupRows(times.length);
      r.time.set(times);
      r.count.set(times.map((t) => t / 60));
      return r;
    };
    const ordered = [part([60, 120]), part([120, 180]), part([])];
    expect(partsInTimeOrder(ordered)).toBe(ordered);
    for (const parts of [[part([60, 180]), part([120])], [part([120, 60]), part([180])]]) {
      const merged = partsInTimeOrder(parts);
      expect(merged).toHaveLength(1);
      expect([...merged[0].time]).toEqual([...parts.flatMap((p) => [...p.time])].sort((a, b) => a - b));
      expect([...merged[0].count]).toEqual([...merged[0].time].map((t) => t / 60));
    }
  });
});
