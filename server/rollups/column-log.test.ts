import { describe, expect, it } from 'vitest';
import { ColumnLog } from './column-log.js';

const log = () => new ColumnLog((n) => ({ time: new Float64Array(n), v: new Int32Array(n) }));
const rows = (times: number[]) => ({ time: Float64Array.from(times), v: Int32Array.from(times, (t) => t * 10) });

describe('ColumnLog', () => {
  it('slices [from, to) by time across appends that grow it', () => {
    const l = log();
    for (let t = 0; t < 100; t += 4) l.append(rows([t, t + 1, t + 2, t + 3]), 4);
    const s = l.slice(10, 20);
    expect([...s.time]).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    expect([...s.v]).toEqual([100, 110, 120, 130, 140, 150, 160, 170, 180, 190]);
    expect(l.slice(200, 300).time.length).toBe(0);
  });

  it('appends only the first n rows of the source', () => {
    const l = log();
    l.append(rows([1, 2, 3]), 2);
    expect([...l.slice(-Infinity, Infinity).time]).toEqual([1, 2]);
  });

  it('forgets rows before a cut, and a view taken before keeps its values', () => {
    const l = log();
    l.append(rows([1, 2, 3, 4]), 4);
    const before = l.slice(1, 5);
    l.trimBefore(3);
    for (let t = 5; t < 200; t++) l.append(rows([t]), 1); // grows and compacts
    expect([...before.time]).toEqual([1, 2, 3, 4]);
    expect([...l.slice(0, 6).time]).toEqual([3, 4, 5]);
    expect(l.length).toBe(197);
  });

  it('puts late rows in time order (stable for equal times)', () => {
    const l = log();
    l.append({ time: Float64Array.from([10, 20, 30]), v: Int32Array.from([1, 2, 3]) }, 3);
    l.append({ time: Float64Array.from([15, 20]), v: Int32Array.from([4, 5]) }, 2);
    const s = l.slice(0, 100);
    expect([...s.time]).toEqual([10, 15, 20, 20, 30]);
    expect([...s.v]).toEqual([1, 4, 2, 5, 3]);
  });

  it('appends since a time: the tail of rows in order, everything when an earlier row is late', () => {
    const l = log();
    l.appendSince(rows([1, 2, 3, 4, 5]), 5, 3);
    expect([...l.slice(-Infinity, Infinity).time]).toEqual([3, 4, 5]);
    expect([...l.slice(-Infinity, Infinity).v]).toEqual([30, 40, 50]);
    l.appendSince(rows([6, 9, 7, 8]), 4, 8); // 9 sits before the tail [8]: all rows go in
    l.trimBefore(8);
    expect([...l.slice(-Infinity, Infinity).time]).toEqual([8, 9]);
    l.appendSince(rows([10, 11]), 2, 20);
    expect(l.length).toBe(2);
    l.appendSince({ time: [21, 22, 23], v: [1, 2, 3] }, 3, 22);
    expect([...l.slice(-Infinity, Infinity).v]).toEqual([8 * 10, 9 * 10, 2, 3]);
  });

  it('accepts plain arrays', () => {
    const l = log();
    l.append({ time: [1, 2], v: [7, 8] }, 2);
    expect([...l.slice(2, 3).v]).toEqual([8]);
  });
});
