// Rollup rows through the store and back: appended by position in the table's order (DuckDB)
// or copied into PostgreSQL's rollup tables (sample-tables.ts), read with the declared SELECT
// lists (PostgreSQL: its reads of plain rows and blocks), they are the rows that went in (NaN
// through NULL).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../store/db.js';
import { RollupRowColumns } from './columns.js';
import { concatRollupRows, emptyRollupRows, leanRowsFromStoredColumns, rowsFromColumns, type RollupRows } from './rows.js';
import { RollupLeanStoredColumns, rollupReduceColumns } from './sql.js';
import { openTestStore } from '../store/testing/test-store.js';
import { pgReaderOf, pgReducedRollups, pgStoredRollups, prepareRollupWrite, readRollupRows, writeRollupRows } from '../store/sample-tables.js';

const End = 8.64e15;

/** n rows whose every column holds its own values, "no value" in every nullable column of row 1. */
function distinctRows(n: number, t0: number): RollupRows {
  const rows = emptyRollupRows(n);
  const c = rows as unknown as Record<string, Float64Array | Int32Array>;
  RollupRowColumns.forEach((col, k) => {
    for (let i = 0; i < n; i++) c[col.key][i] = col.nullable && i === 1 ? NaN : k * 100 + i + (col.type === 'DOUBLE' ? 0.5 : 0);
  });
  for (let i = 0; i < n; i++) rows.time[i] = t0 + i * 60_000;
  return rows;
}

const plain = (r: RollupRows) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Array.from(v as ArrayLike<number>)]));

describe('rollup rows in the store', () => {
  let dir: string;
  let store: Store;
  const a = distinctRows(3, 0);
  const b = distinctRows(2, 600_000);
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-rollups-'));
    store = await openTestStore(dir);
    const sets = [
      { resolution: 60_000, sessionId: 7, rows: a },
      { resolution: 60_000, sessionId: 8, rows: emptyRollupRows() },
      { resolution: 600_000, sessionId: 7, rows: b },
    ];
    await prepareRollupWrite(store, sets);
    await store.transaction((_, conn) => writeRollupRows(conn, sets));
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('read back with the declared columns, are the rows appended, of their level and session', async () => {
    const read = (resolution: number, sessionId = 7) => readRollupRows(store, resolution, sessionId, 0, End);
    expect(plain(await read(60_000))).toEqual(plain(a));
    expect(plain(await read(600_000))).toEqual(plain(b));
    expect((await read(60_000, 8)).time.length).toBe(0);
    expect(plain(concatRollupRows([a, b]))).toEqual(plain(concatRollupRows([await read(60_000), await read(600_000)])));
  });

  it('read lean, keep the lean columns and read the others as no value or 0', async () => {
    const pg = pgReaderOf(store);
    const lean = pg
      ? await pgStoredRollups(pg, 60_000, 7, 0, End, { kind: 'lean' })
      : leanRowsFromStoredColumns(await store.numbersWithIntegers(`SELECT ${RollupLeanStoredColumns} FROM rollups WHERE resolution = 60000 ORDER BY time`));
    for (const c of RollupRowColumns) {
      const expected = 'lean' in c ? Array.from(a[c.key]) : a.time.length ? Array.from(a.time, () => (c.nullable ? NaN : 0)) : [];
      expect([c.key, Array.from(lean[c.key])]).toEqual([c.key, expected]);
    }
  });

  // How rows of one cell merge is checked against the kernel over real history
  // (server/ingest/recent.integration.test.ts); here, that the reduction keeps every column.
  it('reduced onto a grid, one row per cell, keep every column in declared order and type', async () => {
    // Every row of `a` has its own hop, so each cell of the 10-minute grid holds one row.
    const pg = pgReaderOf(store);
    const reduced = pg
      ? await pgReducedRollups(pg, 60_000, 7, 0, End, { start: 0, period: 600_000 })
      : rowsFromColumns(await store.numbersWithIntegers(
          `SELECT ${rollupReduceColumns('$1', '$2')} FROM rollups WHERE resolution = 60000 AND session_id = 7 GROUP BY 1, 2 ORDER BY 1, 2`,
          [0, 600_000],
        ));
    expect(plain(reduced)).toEqual(plain({ ...a, time: new Float64Array(3) }));
  });
});
