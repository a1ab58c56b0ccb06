// The declaration (columns.ts) against the rollups table that users' databases hold: the
// migrations created it in their own words and are never edited, so the declaration must
// describe exactly what they made, in the table's order (the appender writes by position).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../store/db.js';
import { RollupOwnerColumns, RollupRowColumns, RollupTable, storedType } from './columns.js';
import { addRollupColumnSql, rollupTableSql } from './sql.js';

interface ColumnInfo {
  name: string;
  type: string;
  nullable: boolean;
}

const declared: ColumnInfo[] = [
  ...RollupOwnerColumns.map((c) => ({ name: c.sql, type: c.type, nullable: false })),
  ...RollupRowColumns.map((c) => ({ name: c.sql, type: storedType(c), nullable: c.nullable })),
];

describe('the rollups table', () => {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-rollups-'));
    store = await Store.open(dir); // a fresh database: every migration applied
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const columnsOf = async (table: string): Promise<ColumnInfo[]> =>
    (
      await store.all<{ name: string; type: string; nullable: string }>(
        `SELECT column_name AS name, data_type AS type, is_nullable AS nullable
         FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position`,
        [table],
      )
    ).map((c) => ({ name: c.name, type: c.type, nullable: c.nullable === 'YES' }));

  it('as the migrations create it, has the declared columns, types and NULLs, in declared order', async () => {
    expect(await columnsOf(RollupTable)).toEqual(declared);
  });

  it('as the declaration creates it, is the same table', async () => {
    await store.run(rollupTableSql('rollups_declared'));
    expect(await columnsOf('rollups_declared')).toEqual(declared);
  });

  it('gains a declared column at the end with the migration step the declaration gives', async () => {
    await store.run(rollupTableSql('rollups_before'));
    await store.run('ALTER TABLE rollups_before DROP COLUMN flags');
    // A row stored before the column existed gets the default, which merges as "nothing".
    await store.run(`INSERT INTO rollups_before (resolution, session_id, time, hop, count, lost, sum, jitter_sum, jitter_pairs)
                     VALUES (60000, 1, 0, 1, 1, 0, 5, 0, 0)`);
    for (const step of addRollupColumnSql('flags', { default: 0, table: 'rollups_before' })) await store.run(step);
    expect(await columnsOf('rollups_before')).toEqual(declared);
    expect(await store.all('SELECT flags FROM rollups_before')).toEqual([{ flags: 0 }]);
  });
});
