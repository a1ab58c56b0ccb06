import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter, readColumn, writeColumn } from './block-codec.js';

function roundTrip(values: number[], nullable = false): { back: number[]; bytes: number } {
  const w = new ByteWriter();
  writeColumn(w, values, values.length, nullable);
  writeColumn(w, [7, 8], 2); // a second column after it: the reader must stop where the first ends
  const buf = w.done();
  const r = new ByteReader(buf);
  const back = Array.from(readColumn(r, values.length));
  expect(Array.from(readColumn(r, 2))).toEqual([7, 8]);
  expect(r.at).toBe(buf.length);
  return { back, bytes: buf.length };
}

describe('block codec', () => {
  it('round-trips whole numbers of every width, both signs, up to 2^50 in magnitude', () => {
    let seed = 7;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
    for (const scale of [0, 1, 255, 65_535, 2 ** 20, 2 ** 31, 2 ** 40, 2 ** 51]) {
      const values = Array.from({ length: 1000 }, () => Math.round((rnd() - 0.5) * scale) + 0); // + 0: no -0
      expect(roundTrip(values).back).toEqual(values);
    }
    const extremes = [2 ** 50, -(2 ** 50), 0, 2 ** 50, -5, 2_147_483_647, -2_147_483_648];
    expect(roundTrip(extremes).back).toEqual(extremes);
  });

  it('packs a constant step to almost nothing and keeps NULLs as NaN', () => {
    const times = Array.from({ length: 1440 }, (_, i) => 1_764_000_000_000 + i * 2500);
    const t = roundTrip(times);
    expect(t.back).toEqual(times);
    expect(t.bytes).toBeLessThan(60);
    const withNull = [5, NaN, 7, NaN, NaN, -1, 3];
    expect(roundTrip(withNull, true).back).toEqual(withNull);
    expect(roundTrip([], true).back).toEqual([]);
    expect(roundTrip([42]).back).toEqual([42]);
  });

  it('refuses a truncated block', () => {
    const w = new ByteWriter();
    writeColumn(w, [1, 1000, 5, 99999], 4);
    const buf = w.done();
    expect(() => readColumn(new ByteReader(buf.subarray(0, buf.length - 1)), 4)).toThrow(/truncated/);
  });
});
