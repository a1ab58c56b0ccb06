import { describe, expect, it } from 'vitest';
import { BatchedLookup } from './batched-lookup.js';

describe('BatchedLookup', () => {
  it('answers the ids asked in one turn with one read, each caller its own value', async () => {
    const reads: number[][] = [];
    const lookup = new BatchedLookup<string>(
      async (ids) => {
        reads.push([...ids].sort());
        return new Map(ids.filter((id) => id !== 3).map((id) => [id, `v${id}`]));
      },
      (id) => `none${id}`,
    );
    const got = await Promise.all([lookup.get(1), lookup.get(2), lookup.get(1), lookup.get(3)]);
    expect(got).toEqual(['v1', 'v2', 'v1', 'none3']);
    expect(reads).toEqual([[1, 2, 3]]);
    // A later turn reads again.
    expect(await lookup.get(2)).toBe('v2');
    expect(reads).toHaveLength(2);
  });

  it('fails every caller of a read that failed, and reads again afterwards', async () => {
    let fail = true;
    const lookup = new BatchedLookup<number>(
      async (ids) => {
        if (fail) throw new Error('store closed');
        return new Map(ids.map((id) => [id, id * 10]));
      },
      () => -1,
    );
    const a = lookup.get(1);
    const b = lookup.get(2);
    await expect(a).rejects.toThrow('store closed');
    await expect(b).rejects.toThrow('store closed');
    fail = false;
    expect(await lookup.get(4)).toBe(40);
  });
});
