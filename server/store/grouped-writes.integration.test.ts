// GroupedWrites: values set within the gather time are written together, the newest per key,
// each caller's promise resolving once that write is committed; a failed write rejects them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Store } from '../../test/support/built.js';
import { GroupedWrites } from './grouped-writes.js';
import { openTestStore } from './testing/test-store.js';

const dir = mkdtempSync(join(tmpdir(), 'hopwatch-grouped-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('GroupedWrites', () => {
  it('writes what was set within the gather time in one write, the newest value per key', async () => {
    const store = await openTestStore(dir);
    try {
      await store.run('CREATE TABLE gw (id INTEGER PRIMARY KEY, v VARCHAR)');
      const groups: number[] = [];
      const writes = new GroupedWrites<string>(store, 20, async (q, rows) => {
        groups.push(rows.length);
        for (const [id, v] of rows) await q.run('INSERT INTO gw VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET v = excluded.v', [id, v]);
      });
      const a = writes.set(1, 'a');
      const b = writes.set(2, 'b');
      const c = writes.set(1, 'c');
      await Promise.all([a, b, c]);
      // Resolved only after the write: the rows are there.
      expect(await store.all('SELECT id, v FROM gw ORDER BY id')).toEqual([{ id: 1, v: 'c' }, { id: 2, v: 'b' }]);
      expect(groups).toEqual([2]);

      await writes.set(3, 'd');
      expect(groups).toEqual([2, 1]);

      const failing = new GroupedWrites<string>(store, 5, async () => {
        throw new Error('disk full');
      });
      await expect(failing.set(1, 'x')).rejects.toThrow('disk full');
    } finally {
      await store.close();
    }
  });
});
