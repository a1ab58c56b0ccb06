// Issue 45 item 2: a large append leaves the main thread free. DuckDB writes the rows on its
// own threads and takes them from JS a slice of 2,048 rows at a time; the event loop turns
// between the slices, so a console's call is answered during the append, not after it. The
// appender this replaced did all of it on the main thread, yielding once per 16 DataChunks,
// and every 100 DataChunks wrote them into the table in one synchronous call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance, INTEGER, BIGINT, type DuckDBConnection } from '@duckdb/node-api';
import { appendColumns, appendRows, ChunkRows } from './append-columns.js';

describe('appendColumns on DuckDB, the main thread', () => {
  let instance: DuckDBInstance;
  let writer: DuckDBConnection;
  let reader: DuckDBConnection;
  const n = 1_000_000;
  const session = new Int32Array(n).fill(7);
  const time = Float64Array.from({ length: n }, (_, i) => 1.7e12 + Math.floor(i / 30) * 2500);

  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:');
    writer = await instance.connect();
    reader = await instance.connect();
    await writer.run('CREATE TABLE s (session_id INTEGER, time BIGINT)');
    await writer.run('CREATE TABLE other (x INTEGER)');
    await writer.run('CREATE TABLE h (session_id INTEGER, hop SMALLINT, address VARCHAR, minute DOUBLE, answers INTEGER, details VARCHAR)');
    await writer.run('INSERT INTO other SELECT range FROM range(1000)');
  });
  afterAll(() => {
    writer.closeSync();
    reader.closeSync();
    instance.closeSync();
  });

  /** How many reads on another connection, one after the other, complete during the append (in a transaction, committed after). */
  async function readsDuring(append: () => Promise<void>): Promise<number> {
    let appending = true;
    let during = 0;
    const reading = (async () => {
      while (appending) {
        await reader.runAndReadAll('SELECT count(*) FROM other');
        if (appending) during++;
      }
    })();
    await writer.run('BEGIN TRANSACTION');
    await append();
    appending = false;
    await reading;
    await writer.run('COMMIT');
    return during;
  }

  it('answers reads on another connection while a large append runs, not only between groups of slices', async () => {
    const slices = Math.ceil(n / ChunkRows);
    const during = await readsDuring(() =>
      appendColumns(writer, 's', n, [
        { type: INTEGER, values: session },
        { type: BIGINT, values: time },
      ]),
    );
    // A read's answer is taken in by the main thread: the appender let it in only where it
    // yielded, once every 16 DataChunks, so at most slices / 16 reads could complete during it.
    expect(during).toBeGreaterThan(slices / 16);
    const [[count, last]] = (await writer.runAndReadAll('SELECT count(*)::DOUBLE, max(time)::DOUBLE FROM s')).getRows();
    expect([count, last]).toEqual([n, time[n - 1]]);
  });

  it('takes rows with text (the hop hosts) slice by slice as well, answering reads meanwhile', async () => {
    const m = 400_000;
    const rows = Array.from({ length: m }, (_, i) => [i % 1000, i % 30, `10.0.${i % 250}.${i % 7}`, 1.7e12 + i * 60_000, i % 5, i % 3 ? null : `{"asn":${i}}`]);
    const during = await readsDuring(() => appendRows(writer, 'h', ['INTEGER', 'SMALLINT', 'VARCHAR', 'DOUBLE', 'INTEGER', 'VARCHAR'], rows));
    // The appender did every row in one synchronous run after it was created: measured, no
    // read completed during it. Through the table function the event loop turns between its
    // 196 slices (measured: 4 to 218 reads completed, each read several round trips of its own).
    expect(during).toBeGreaterThan(0);
    const [[count, nulls, last]] = (await writer.runAndReadAll("SELECT count(*)::DOUBLE, count(*) FILTER (WHERE details IS NULL)::DOUBLE, max(address) FROM h")).getRows();
    expect([count, nulls, last]).toEqual([m, m - Math.ceil(m / 3), '10.0.99.6']);
  });
});
