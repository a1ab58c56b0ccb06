import { describe, expect, it } from 'vitest';
import { BIGINT, DOUBLE, DuckDBInstance, INTEGER, SMALLINT } from '@duckdb/node-api';
import { appendColumns, appendRows } from './append-columns.js';

describe('appendColumns', () => {
  it('stores every value of every column, NULL for NaN in nullable columns, across chunks', async () => {
    const conn = await (await DuckDBInstance.create(':memory:')).connect();
    await conn.run('CREATE TABLE t (i INTEGER, s SMALLINT, d DOUBLE, n DOUBLE, plain DOUBLE)');
    const n = 5000; // three DataChunks: 2048 + 2048 + 904
    const i = Int32Array.from({ length: n }, (_, k) => k * 7 - 9000);
    const s = Int32Array.from({ length: n }, (_, k) => (k % 300) - 20);
    const d = Float64Array.from({ length: n }, (_, k) => k / 3);
    // NULLs at chunk edges, in one whole 64-row word, and scattered.
    const nulls = new Set([0, 63, 64, 2047, 2048, 4999, ...Array.from({ length: 64 }, (_, k) => 3008 + k), ...Array.from({ length: 50 }, (_, k) => k * 97 + 5)]);
    const nv = Float64Array.from({ length: n }, (_, k) => (nulls.has(k) ? NaN : k * 1.25));
    const plain = Float64Array.from({ length: n }, (_, k) => -k);
    await appendColumns(conn, 't', n, [
      { type: INTEGER, values: i },
      { type: SMALLINT, values: s },
      { type: DOUBLE, values: d },
      { type: DOUBLE, values: nv, nullable: true },
      { type: DOUBLE, values: plain },
    ]);
    const rows = (await conn.runAndReadAll('SELECT i, s, d, n, plain FROM t')).getColumnsJS();
    expect(rows[0]).toEqual(Array.from(i));
    expect(rows[1]).toEqual(Array.from(s));
    expect(rows[2]).toEqual(Array.from(d));
    expect(rows[3]).toEqual(Array.from(nv, (v) => (Number.isNaN(v) ? null : v)));
    expect(rows[4]).toEqual(Array.from(plain));
    expect(rows[3].filter((v) => v === null)).toHaveLength(nulls.size);
    conn.closeSync();
  });

  it('stores BIGINT columns exactly (negative, above 2^32, near 2^53) and encodes values first, NULL kept', async () => {
    const conn = await (await DuckDBInstance.create(':memory:')).connect();
    await conn.run('CREATE TABLE t (b BIGINT, e INTEGER)');
    const n = 3000;
    const big = Float64Array.from({ length: n }, (_, k) => (k % 2 ? -1 : 1) * (k * 4_294_967_311 + k) * (k === 2999 ? 2097 : 1));
    big[5] = NaN;
    big[6] = 2 ** 53 - 1;
    big[7] = -(2 ** 53) + 1;
    const ms = Float64Array.from({ length: n }, (_, k) => (k % 10 === 0 ? NaN : k * 0.0015));
    await appendColumns(conn, 't', n, [
      { type: BIGINT, values: big, nullable: true },
      { type: INTEGER, values: ms, nullable: true, encode: (v) => Math.round(v * 1000) },
    ]);
    const [b, e] = (await conn.runAndReadAll('SELECT b::VARCHAR, e FROM t')).getColumnsJS();
    expect(b).toEqual(Array.from(big, (v) => (Number.isNaN(v) ? null : BigInt(v).toString())));
    expect(e).toEqual(Array.from(ms, (v) => (Number.isNaN(v) ? null : Math.round(v * 1000))));
    conn.closeSync();
  });

  it('takes columns already in their stored width as they are (BigInt64Array, Int16Array, Int32Array), with a validity mask given for the whole column', async () => {
    const conn = await (await DuckDBInstance.create(':memory:')).connect();
    await conn.run('CREATE TABLE t (b BIGINT, s SMALLINT, i INTEGER)');
    const n = 4500;
    const b = BigInt64Array.from({ length: n }, (_, k) => BigInt(k) * 4_294_967_311n - 7n);
    const s = Int16Array.from({ length: n }, (_, k) => (k % 600) - 300);
    const i = Int32Array.from({ length: n }, (_, k) => k * 1000 - 5);
    // Bit set = value present: every 5th row of i is NULL.
    const validity = new Uint8Array(Math.ceil(n / 64) * 8).fill(0xff);
    for (let k = 0; k < n; k += 5) validity[k >> 3] &= ~(1 << (k & 7));
    await appendColumns(conn, 't', n, [
      { type: BIGINT, values: b },
      { type: SMALLINT, values: s },
      { type: INTEGER, values: i, nullable: true, validity },
    ]);
    const [rb, rs, ri] = (await conn.runAndReadAll('SELECT b::VARCHAR, s, i FROM t')).getColumnsJS();
    expect(rb).toEqual(Array.from(b, (v) => v.toString()));
    expect(rs).toEqual(Array.from(s));
    expect(ri).toEqual(Array.from(i, (v, k) => (k % 5 === 0 ? null : v)));
    conn.closeSync();
  });

  it('appends rows of mixed columns (text, numbers, NULLs) exactly, across slices', async () => {
    const conn = await (await DuckDBInstance.create(':memory:')).connect();
    await conn.run('CREATE TABLE t (v VARCHAR, i INTEGER, s SMALLINT, b BIGINT, d DOUBLE)');
    const rows = Array.from({ length: 4200 }, (_, k) => [
      k % 4 === 0 ? null : `addr-${k}-${'x'.repeat(k % 20)}é`,
      k % 7 === 0 ? null : k - 2100,
      k % 11 === 0 ? null : (k % 500) - 250,
      k % 13 === 0 ? null : k * 4_294_967_311,
      k % 17 === 0 ? null : k / 7,
    ]);
    await appendRows(conn, 't', ['VARCHAR', 'INTEGER', 'SMALLINT', 'BIGINT', 'DOUBLE'], rows);
    const got = (await conn.runAndReadAll('SELECT v, i, s, b::DOUBLE, d FROM t')).getRows();
    expect(got).toEqual(rows);
    conn.closeSync();
  });
});
