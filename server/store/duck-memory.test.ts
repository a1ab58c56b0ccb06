// DuckDB's memory limit (issue 45 item 7): the store sets one, spills beyond it into the data
// directory, and a query over more data than the limit still completes.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DuckStore } from './db.js';
import { availableMemoryBytes, defaultStoreMemoryMb, parseDuckBytes, spillDirOf } from './duck-memory.js';

const MiB = 1024 * 1024;

describe("DuckDB's memory", () => {
  let dir: string | undefined;
  let store: DuckStore | undefined;
  afterEach(async () => {
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    store = dir = undefined;
  });

  it('defaults to a quarter of the RAM, between 256 MiB and 1 GiB', () => {
    expect(defaultStoreMemoryMb(24 * 1024 * MiB)).toBe(1024);
    expect(defaultStoreMemoryMb(2 * 1024 * MiB)).toBe(512);
    expect(defaultStoreMemoryMb(512 * MiB)).toBe(256);
  });

  it('counts a container\'s memory limit, not the host\'s RAM, when there is one', () => {
    // In a container limited to 1 GiB on a 24 GiB host, a quarter of the host's RAM would be
    // the container's whole allowance: the default follows the cgroup's limit.
    expect(availableMemoryBytes(24 * 1024 * MiB, 1024 * MiB)).toBe(1024 * MiB);
    expect(defaultStoreMemoryMb(availableMemoryBytes(24 * 1024 * MiB, 1024 * MiB))).toBe(256);
    // No limit: Node says 0 or a number past the RAM (2^64 - 1 on cgroup v2's "max").
    expect(availableMemoryBytes(24 * 1024 * MiB, 0)).toBe(24 * 1024 * MiB);
    expect(availableMemoryBytes(24 * 1024 * MiB, 2 ** 64)).toBe(24 * 1024 * MiB);
  });

  it('reads DuckDB\'s sizes', () => {
    expect(parseDuckBytes('1.0 GiB')).toBe(1024 * MiB);
    expect(parseDuckBytes('64.0 MiB')).toBe(64 * MiB);
    expect(parseDuckBytes('1000 bytes')).toBe(1000);
    expect(parseDuckBytes('2.5 MB')).toBe(2_500_000);
    expect(parseDuckBytes('lots')).toBeNaN();
  });

  it('opens the file with the default limit, not 80% of the RAM', async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-duck-memory-'));
    store = await DuckStore.open(dir);
    const m = await store.memory();
    expect(m.limitBytes).toBe(defaultStoreMemoryMb() * MiB);
    expect(await store.one<{ d: string }>(`SELECT current_setting('temp_directory') AS d`)).toEqual({ d: spillDirOf(dir) });
  });

  it('completes a query over more data than the limit by spilling into the data directory, and empties the spill at close', async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-duck-memory-'));
    store = await DuckStore.open(dir, { memoryMb: 64 });
    expect((await store.memory()).limitBytes).toBe(64 * MiB);
    // 12 M rows of 3 numbers sorted in full (about 300 MB of sort state): far over 64 MiB.
    await store.run('CREATE TABLE big AS SELECT i AS id, hash(i) AS h, (i * 7919) % 1000003 AS v FROM range(12000000) t(i)');
    const seen = { spilled: 0 };
    const watch = setInterval(() => {
      void store?.memory().then((m) => (seen.spilled = Math.max(seen.spilled, m.spilledBytes)), () => undefined);
    }, 50);
    const r = await store
      .read((q) => q.one<{ n: number; first: number; last: number }>(`SELECT count(*)::DOUBLE AS n, first(h)::DOUBLE AS first, last(h)::DOUBLE AS last FROM (SELECT h FROM big ORDER BY h, v, id)`))
      .finally(() => clearInterval(watch));
    expect(r?.n).toBe(12_000_000);
    expect(r!.first).toBeLessThanOrEqual(r!.last);
    // Spilled, into the data directory's spill directory.
    expect(seen.spilled).toBeGreaterThan(0);
    await store.close();
    store = undefined;
    expect(!existsSync(spillDirOf(dir)) || readdirSync(spillDirOf(dir)).length === 0).toBe(true);
  }, 120_000);
});
