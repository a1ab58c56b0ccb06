import { describe, expect, it } from 'vitest';
import { SampleBatchBuilder } from './sample-columns.js';

const fill = (b: SampleBatchBuilder, from: number, n: number) => {
  for (let i = from; i < from + n; i++) b.push(7, 1000 + i, (i % 30) + 1, i / 2);
};

describe('SampleBatchBuilder', () => {
  it('hands a nearly full batch over as it is, and reuses the buffers it gets back', () => {
    const b = new SampleBatchBuilder(8);
    fill(b, 0, 7);
    const first = b.take();
    expect(first.length).toBe(7);
    expect([...first.time]).toEqual([1000, 1001, 1002, 1003, 1004, 1005, 1006]);
    fill(b, 7, 6); // into new buffers: the first batch is untouched
    expect([...first.latency]).toEqual([0, 0.5, 1, 1.5, 2, 2.5, 3]);
    b.recycle(first);
    const second = b.take();
    expect([...second.time]).toEqual([1007, 1008, 1009, 1010, 1011, 1012]);
    fill(b, 13, 5); // into the recycled buffers
    const third = b.take();
    expect(third.time.buffer).toBe(first.time.buffer);
    expect([...third.hop]).toEqual([14, 15, 16, 17, 18]);
    expect([...third.session]).toEqual([7, 7, 7, 7, 7]);
  });

  it('copies a small batch out and keeps its buffers', () => {
    const b = new SampleBatchBuilder(16);
    fill(b, 0, 3);
    const small = b.take();
    expect(small.time.buffer.byteLength).toBe(3 * 8);
    b.recycle(small); // not one of its own: ignored
    fill(b, 3, 2);
    expect([...small.time]).toEqual([1000, 1001, 1002]);
    expect([...b.take().time]).toEqual([1003, 1004]);
  });
});
