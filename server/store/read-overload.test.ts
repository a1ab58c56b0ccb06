// Issue 45 item 7: under overload the store's reads are refused (503 with Retry-After), never
// left waiting for ever, and sign-ins go before the consoles' bulk reads.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ReadPool, Store, StoreOverloaded } from './db.js';
import { ServerBusyRetrySeconds } from '../contract/busy.js';

const refusal = { status: 503, headers: { 'retry-after': String(ServerBusyRetrySeconds) } };

describe('Store.read behind a foreground write that does not settle', () => {
  let dir: string;
  let store: Store;
  let release = () => {};
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-overload-'));
    store = await Store.open(dir, { reads: { waitMs: 300 } });
  });
  afterEach(async () => {
    release(); // a failed test must not leave the write holding close()
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is refused with 503 and Retry-After instead of waiting for ever, and reads again once the write settles', async () => {
    const stuck = store.exclusive(() => new Promise<void>((r) => (release = r)));
    const read = store.read((q) => q.one<{ v: number }>('SELECT 42 AS v'), { priority: 'sign-in' });
    await expect(read).rejects.toBeInstanceOf(StoreOverloaded);
    await expect(read).rejects.toMatchObject(refusal);
    release();
    await stuck;
    expect((await store.read((q) => q.one<{ v: number }>('SELECT 42 AS v')))?.v).toBe(42);
  });
});

describe('ReadPool under overload', () => {
  let instance: DuckDBInstance;
  let conns: DuckDBConnection[];
  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:');
    conns = await Promise.all([instance.connect(), instance.connect()]);
  });
  afterAll(() => {
    for (const c of conns) c.closeSync();
    instance.closeSync();
  });

  /** Holds every connection of the pool until the returned function is called. */
  const holdAll = (pool: ReadPool) => {
    const releases: (() => void)[] = [];
    const held = conns.map(() => pool.with(() => new Promise<void>((r) => releases.push(r))));
    return async () => {
      for (const r of releases) r();
      await Promise.all(held);
    };
  };

  it('refuses a bulk read at once when its queue is full, and answers every one it queued', async () => {
    const pool = new ReadPool(conns, { waitMs: 60_000, queue: 3 });
    const release = holdAll(pool);
    const queued = Array.from({ length: 3 }, (_, i) => pool.with((q) => q.one<{ v: number }>(`SELECT ${i} AS v`), 'bulk'));
    await expect(pool.with((q) => q.one('SELECT 9'), 'bulk')).rejects.toMatchObject(refusal);
    expect(pool.refused).toBe(1);
    await release();
    expect((await Promise.all(queued)).map((r) => r?.v)).toEqual([0, 1, 2]);
  });

  it('refuses a read that waited its limit for a connection that was never given back', async () => {
    const pool = new ReadPool(conns, { waitMs: 200, queue: 10 });
    const release = holdAll(pool);
    await expect(pool.with((q) => q.one('SELECT 1'), 'sign-in')).rejects.toMatchObject(refusal);
    await expect(pool.with((q) => q.one('SELECT 1'), 'bulk')).rejects.toMatchObject(refusal);
    await release();
    expect(await pool.with((q) => q.one<{ v: number }>('SELECT 7 AS v'))).toEqual({ v: 7 });
  });

  it('serves a sign-in before the bulk reads queued ahead of it, and does not count it against their queue', async () => {
    const pool = new ReadPool(conns, { waitMs: 60_000, queue: 2 });
    const release = holdAll(pool);
    const order: string[] = [];
    // The order in which they are given a connection (their statements then run side by side).
    const bulk = [1, 2].map((i) => pool.with(async (q) => (order.push(`bulk ${i}`), await q.one(`SELECT ${i}`)), 'bulk'));
    const signIn = pool.with(async (q) => (order.push('sign-in'), await q.one('SELECT 0')), 'sign-in');
    await release();
    await Promise.all([...bulk, signIn]);
    expect(order).toEqual(['sign-in', 'bulk 1', 'bulk 2']);
    expect(pool.refused).toBe(0);
  });

  it('never refuses background work (trace starts, ingest, alerts): it waits past the limit and past a full queue', async () => {
    const pool = new ReadPool(conns, { waitMs: 100, queue: 1 });
    const release = holdAll(pool);
    const background = Array.from({ length: 5 }, (_, i) => pool.with((q) => q.one<{ v: number }>(`SELECT ${i} AS v`)));
    await expect(pool.with((q) => q.one('SELECT 1'), 'sign-in')).rejects.toMatchObject(refusal); // the wait limit has passed
    await release();
    expect((await Promise.all(background)).map((r) => r?.v)).toEqual([0, 1, 2, 3, 4]);
  });
});
