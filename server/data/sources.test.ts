import { describe, expect, it } from 'vitest';
import { beforeFirstSample, planCover } from './sources.js';

const MIN = 60_000;
const H = 3_600_000;
let seed = 7;
const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;

describe('planCover', () => {
  it('uses the coarsest closed level for the aligned middle and raw samples for the edges and the open tail', () => {
    const marks = [10 * H, 10 * H, 9 * H];
    const segs = planCover(H + 30_000, 10 * H + 5 * MIN, Infinity, marks);
    expect(segs).toEqual([
      { level: -1, from: H + 30_000, to: H + MIN, memory: false },
      { level: 0, from: H + MIN, to: H + 10 * MIN, memory: false },
      { level: 1, from: H + 10 * MIN, to: 2 * H, memory: false },
      { level: 2, from: 2 * H, to: 9 * H, memory: false },
      { level: 1, from: 9 * H, to: 10 * H, memory: false },
      { level: -1, from: 10 * H, to: 10 * H + 5 * MIN, memory: false },
    ]);
  });

  it('splits a segment where the memory coverage starts, store first', () => {
    const marks = [10 * H, 10 * H, 10 * H];
    const segs = planCover(0, 10 * H + MIN, MIN, marks, { rawFrom: 9 * H, rowsFrom: [5 * H, 0, 0] });
    expect(segs).toEqual([
      { level: 0, from: 0, to: 5 * H, memory: false },
      { level: 0, from: 5 * H, to: 10 * H, memory: true },
      { level: -1, from: 10 * H, to: 10 * H + MIN, memory: true },
    ]);
  });

  it('answers wholly from memory when the coverage starts before the range', () => {
    const segs = planCover(2 * H, 3 * H, 10 * MIN, [3 * H, 3 * H, 3 * H], { rawFrom: H, rowsFrom: [H, H, H] });
    expect(segs.every((g) => g.memory)).toBe(true);
    expect(segs.map((g) => [g.level, g.from, g.to])).toEqual([[1, 2 * H, 3 * H]]);
  });

  it('covers the range without gaps or overlaps', () => {
    for (let i = 0; i < 200; i++) {
      const from = Math.floor(random() * 50 * H);
      const to = from + Math.floor(random() * 30 * H) + 1;
      const m0 = Math.floor(random() * 80) * MIN * 10;
      const marks = [m0, Math.floor(m0 / (10 * MIN)) * 10 * MIN, Math.floor(m0 / H) * H];
      const rawFrom = random() * 60 * H;
      const segs = planCover(from, to, [MIN, 10 * MIN, H, Infinity][i % 4], marks, { rawFrom, rowsFrom: [rawFrom - H, rawFrom - 5 * H, 0] });
      let at = from;
      for (const g of segs) {
        expect(g.from).toBe(at);
        expect(g.to).toBeGreaterThan(g.from);
        at = g.to;
      }
      expect(at).toBe(to);
    }
  });
});

describe('beforeFirstSample', () => {
  it('leaves out store parts that end before the first sample: raw at the sample, rollup rows at its bucket', () => {
    const first = 10 * H + 90_000; // 10:01:30
    expect(beforeFirstSample({ level: -1, from: 9 * H, to: first, memory: false }, first)).toBe(true);
    expect(beforeFirstSample({ level: -1, from: 9 * H, to: first + 1, memory: false }, first)).toBe(false);
    // The 1-minute row of 10:01 holds the first sample: a part ending after 10:01 is kept.
    expect(beforeFirstSample({ level: 0, from: 9 * H, to: 10 * H + MIN, memory: false }, first)).toBe(true);
    expect(beforeFirstSample({ level: 0, from: 9 * H, to: 10 * H + 2 * MIN, memory: false }, first)).toBe(false);
    // No sample yet: nothing stored; not known: kept.
    expect(beforeFirstSample({ level: -1, from: 9 * H, to: 11 * H, memory: false }, null)).toBe(true);
    expect(beforeFirstSample({ level: -1, from: 9 * H, to: 9 * H + 1, memory: false }, undefined)).toBe(false);
  });
});
