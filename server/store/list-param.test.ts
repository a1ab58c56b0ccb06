// List parameters (dialect.ts `list`) on both backends: many values, none, and text items.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from './db.js';
import { list } from './dialect.js';
import { listParam } from './id-list.js';
import { openTestStore } from './testing/test-store.js';

describe('list parameters', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hopwatch-list-param-'));
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore(dir);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('binds numbers, texts and an empty list as one parameter each', async () => {
    const q = (p: ReturnType<typeof list>, type: string) => store.all<{ v: unknown }>(`SELECT unnest($1::${type}[]) AS v`, [p]);
    expect(await q(list([3, 1, 2]), 'INTEGER')).toEqual([{ v: 3 }, { v: 1 }, { v: 2 }]);
    expect(await q(list(['a', "it's", 'c,d']), 'VARCHAR')).toEqual([{ v: 'a' }, { v: "it's" }, { v: 'c,d' }]);
    expect(await q(list([]), 'VARCHAR')).toEqual([]);
    expect(await q(list([]), 'INTEGER')).toEqual([]);
    expect(await q(listParam([5, 6]), 'INTEGER')).toEqual([{ v: 5 }, { v: 6 }]);
    expect(await q(listParam([]), 'INTEGER')).toEqual([]);
    const roles = await store.one<{ r: string[] }>(`SELECT $1::VARCHAR[] AS r`, [list([])]);
    expect(roles?.r).toEqual([]);
  });
});
