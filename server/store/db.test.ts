import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReadConnections, Store } from './db.js';

describe('Store.read', () => {
  let dir: string;
  let store: Store;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-db-'));
    store = await Store.open(dir);
    await store.run('CREATE TABLE t (v INTEGER)');
    await store.run('INSERT INTO t VALUES (1)');
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('neither waits for a background transaction in progress nor sees it until it commits', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tx = store.transaction(
      async (q) => {
        await q.run('INSERT INTO t VALUES (2)');
        await held;
      },
      { background: true },
    );
    // The exclusive queue is blocked by the open transaction; a read still answers.
    const during = await store.read((q) => q.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM t'));
    expect(during[0].n).toBe(1);
    release();
    await tx;
    const after = await store.read((q) => q.one<{ n: number }>('SELECT count(*)::INTEGER AS n FROM t'));
    expect(after?.n).toBe(2);
  });

  it('sees a write accepted before it, even one queued behind a background transaction', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const flush = store.transaction(() => held, { background: true });
    const write = store.run('INSERT INTO t VALUES (3)'); // waits for the background transaction
    let answered = false;
    const read = store.read((q) => q.one<{ n: number }>('SELECT count(*)::INTEGER AS n FROM t')).then((r) => {
      answered = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(answered).toBe(false);
    release();
    await Promise.all([flush, write]);
    expect((await read)?.n).toBe(2);
  });

  it('runs more statements at once than it has connections, each answered in full', async () => {
    const sums = await store.read((q) =>
      Promise.all(Array.from({ length: 3 * ReadConnections }, (_, i) => q.numbers(`SELECT sum(x)::DOUBLE FROM range(${(i + 1) * 1000}) r(x)`))),
    );
    expect(sums.map((cols) => cols[0][0])).toEqual(Array.from({ length: 3 * ReadConnections }, (_, i) => ((i + 1) * 1000 * ((i + 1) * 1000 - 1)) / 2));
  });

  it('lets reads under way finish when the store closes, and refuses new ones', async () => {
    const pending = store.read((q) => q.numbers('SELECT count(*)::DOUBLE FROM range(3000000)'));
    await store.close();
    expect((await pending)[0][0]).toBe(3_000_000);
    await expect(store.read((q) => q.all('SELECT 1'))).rejects.toThrow(/closed/);
  });
});
