import { describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import bindings from '@duckdb/node-bindings';
import { numericColumnChunks, numericColumns } from './numeric-columns.js';

describe('numericColumns', () => {
  it('matches the library accessor for every numeric type, NULLs and chunk boundaries included', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    // 5,000 rows: three chunks; NULLs at scattered positions, some columns without any.
    const sql = `SELECT i::DOUBLE / 3 AS d, CASE WHEN i % 7 = 0 THEN NULL ELSE i * 1.5 END AS dn,
        (i - 2500)::INTEGER AS int, CASE WHEN i % 64 = 63 THEN NULL ELSE i::SMALLINT END AS small,
        (i * 1000000)::BIGINT AS big, (i % 100 - 50)::TINYINT AS tiny, (i / 8)::DECIMAL(10, 2) AS dec,
        CASE WHEN i = 4999 THEN NULL ELSE -i::FLOAT END AS f
      FROM range(5000) t(i)`;
    const fast = numericColumns(await conn.run(sql));
    const reference = (await conn.runAndReadAll(sql)).getColumnsJS();
    expect(fast).toHaveLength(reference.length);
    reference.forEach((col, c) => {
      expect(fast[c]).toHaveLength(5000);
      const want = col.map((v) => (v === null ? NaN : Number(v)));
      expect(Array.from(fast[c])).toEqual(want);
    });
    expect(fast[1].filter(Number.isNaN)).toHaveLength(715);
    conn.closeSync();
  });

  it('gives 32-bit integer columns without NULLs as Int32Array when asked, the rest as before', async () => {
    const conn = await (await DuckDBInstance.create(':memory:')).connect();
    const sql = `SELECT (i - 2500)::INTEGER AS int, CASE WHEN i = 4097 THEN NULL ELSE i::SMALLINT END AS small_null,
        (i % 100)::TINYINT AS tiny, i::DOUBLE AS d, (i * 3)::BIGINT AS big FROM range(5000) t(i)`;
    const cols = numericColumns(await conn.run(sql), true);
    expect(cols.map((c) => c.constructor.name)).toEqual(['Int32Array', 'Float64Array', 'Int32Array', 'Float64Array', 'Float64Array']);
    const plain = numericColumns(await conn.run(sql));
    cols.forEach((c, i) => expect(Array.from(c)).toEqual(Array.from(plain[i])));
    expect(Number.isNaN(cols[1][4097])).toBe(true);
    expect(cols[0][0]).toBe(-2500);
    conn.closeSync();
  });

  it('gives the same values chunk by chunk, DOUBLE and INTEGER columns as views of one copy', async () => {
    const conn = await (await DuckDBInstance.create(':memory:')).connect();
    const sql = `SELECT i::DOUBLE AS d, CASE WHEN i % 5 = 0 THEN NULL ELSE i * 0.5 END AS dn, i::INTEGER AS n, i::SMALLINT AS s
      FROM range(5000) t(i)`;
    const chunks = numericColumnChunks(await conn.run(sql), true);
    expect(chunks.map((c) => c[0].length)).toEqual([2048, 2048, 904]);
    const whole = numericColumns(await conn.run(sql), true);
    for (let c = 0; c < 4; c++) expect(chunks.flatMap((chunk) => Array.from(chunk[c]))).toEqual(Array.from(whole[c]));
    expect(chunks[0].map((col) => col.constructor.name)).toEqual(['Float64Array', 'Float64Array', 'Int32Array', 'Int32Array']);
    // The views may be patched (NULL as NaN) because the bindings hand out a copy of the
    // vector each time, never DuckDB's own memory: that is what makes them safe to keep.
    const result = await conn.run(sql);
    const vector = bindings.data_chunk_get_vector(result.getChunk(0).chunk, 0);
    const a = bindings.vector_get_data(vector, 8);
    a[0] = 0xff;
    expect(bindings.vector_get_data(vector, 8)[0]).toBe(0);
    conn.closeSync();
  });

  it('gives empty columns for an empty result', async () => {
    const conn = await (await DuckDBInstance.create(':memory:')).connect();
    const cols = numericColumns(await conn.run('SELECT 1::DOUBLE AS a, 2 AS b WHERE false'));
    expect(cols.map((c) => c.length)).toEqual([0, 0]);
    conn.closeSync();
  });
});
