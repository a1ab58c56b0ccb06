import { describe, expect, it } from 'vitest';
import { appendRaw, type RawPending } from './session-rollup-state.js';

const raw = (from: number, n: number): RawPending => ({
  time: Float64Array.from({ length: n }, (_, i) => from + i),
  hop: Int32Array.from({ length: n }, (_, i) => ((from + i) % 30) + 1),
  latency: Float64Array.from({ length: n }, (_, i) => (from + i) / 1000),
});
const values = (r: RawPending) => [Array.from(r.time), Array.from(r.hop), Array.from(r.latency)];

describe('appendRaw', () => {
  it('gives a followed by b, never views of b, and extends in place while its buffer has room', () => {
    const b1 = raw(100, 30);
    const first = appendRaw(raw(0, 0), b1);
    expect(values(first)).toEqual(values(b1));
    expect(first.time.buffer).not.toBe(b1.time.buffer);
    const second = appendRaw(first, raw(130, 30));
    expect(second.time.buffer).toBe(first.time.buffer); // room after it: no copy
    expect(values(second)).toEqual(values(raw(100, 60)));
    // The view it extended still reads what it held.
    expect(values(first)).toEqual(values(b1));
  });

  it('moves the live samples to a new buffer when the room runs out, without what lies before them', () => {
    let r = appendRaw(raw(0, 0), raw(0, 3000));
    r = appendRaw(r, raw(3000, 1000)); // 4,000 of 6,000
    const buffer = r.time.buffer;
    const open = { time: r.time.subarray(3500), hop: r.hop.subarray(3500), latency: r.latency.subarray(3500) };
    const grown = appendRaw(open, raw(4000, 2500)); // 500 + 2,500 from offset 3,500: past 6,000
    expect(grown.time.buffer).not.toBe(buffer);
    expect(grown.time.byteOffset).toBe(0);
    expect(values(grown)).toEqual(values(raw(3500, 3000)));
  });

  it('lets a dropped extension be written over: the next one from the same view wins', () => {
    const base = appendRaw(raw(0, 0), raw(0, 60));
    const dropped = appendRaw(base, raw(60, 30)); // a flush whose commit failed
    const retried = appendRaw(base, raw(500, 30));
    expect(values(retried)).toEqual([
      [...Array.from(raw(0, 60).time), ...Array.from(raw(500, 30).time)],
      [...Array.from(raw(0, 60).hop), ...Array.from(raw(500, 30).hop)],
      [...Array.from(raw(0, 60).latency), ...Array.from(raw(500, 30).latency)],
    ]);
    expect(values(base)).toEqual(values(raw(0, 60)));
    expect(dropped.time.length).toBe(90);
  });
});
