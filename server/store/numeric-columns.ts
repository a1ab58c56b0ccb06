// Copies numeric result columns out of DuckDB's vectors in bulk. The per-value accessor of
// @duckdb/node-api tests each value's validity with BigInt arithmetic, which made reading
// ~650,000 values (a day of 1-minute rollup rows) cost as much as the query itself. Here a
// fixed-width column is copied from the vector's data buffer at once, and NULLs (NaN) are
// patched in from the validity bitmap only where the vector has one.
import bindings from '@duckdb/node-bindings';
import { DuckDBTypeId, type DuckDBDataChunk, type DuckDBMaterializedResult } from '@duckdb/node-api';

type Reader = (data: Uint8Array, rows: number) => ArrayLike<number | bigint>;

const view =
  <T>(Ctor: { new (b: ArrayBufferLike, o: number, n: number): T; BYTES_PER_ELEMENT: number }) =>
  (data: Uint8Array, rows: number): T => {
    // A vector's data is aligned for its type in DuckDB's memory; copy when a view is not.
    const bytes = data.byteOffset % Ctor.BYTES_PER_ELEMENT === 0 ? data : data.slice(0, rows * Ctor.BYTES_PER_ELEMENT);
    return new Ctor(bytes.buffer, bytes.byteOffset, rows);
  };

const readers: Partial<Record<DuckDBTypeId, { width: number; read: Reader }>> = {
  [DuckDBTypeId.DOUBLE]: { width: 8, read: view(Float64Array) },
  [DuckDBTypeId.FLOAT]: { width: 4, read: view(Float32Array) },
  [DuckDBTypeId.BIGINT]: { width: 8, read: view(BigInt64Array) },
  [DuckDBTypeId.INTEGER]: { width: 4, read: view(Int32Array) },
  [DuckDBTypeId.SMALLINT]: { width: 2, read: view(Int16Array) },
  [DuckDBTypeId.TINYINT]: { width: 1, read: view(Int8Array) },
  [DuckDBTypeId.UINTEGER]: { width: 4, read: view(Uint32Array) },
  [DuckDBTypeId.USMALLINT]: { width: 2, read: view(Uint16Array) },
  [DuckDBTypeId.UTINYINT]: { width: 1, read: view(Uint8Array) },
};

/** A result column: floats (NULL as NaN), or 32-bit integers where the type and values allow. */
export type NumericColumn = Float64Array | Int32Array;

const int32Types = new Set<DuckDBTypeId>([DuckDBTypeId.INTEGER, DuckDBTypeId.SMALLINT, DuckDBTypeId.TINYINT, DuckDBTypeId.USMALLINT, DuckDBTypeId.UTINYINT]);

/**
 * Every column of the result as a Float64Array (NULL as NaN); with `integers`, columns of
 * 32-bit integer types without NULLs come as Int32Array instead (half the memory, and no
 * conversion for the kernels, which take counts and hops as integers).
 */
export function numericColumns(result: DuckDBMaterializedResult): Float64Array[];
export function numericColumns(result: DuckDBMaterializedResult, integers: true): NumericColumn[];
export function numericColumns(result: DuckDBMaterializedResult, integers = false): NumericColumn[] {
  const chunks = numericColumnChunks(result, integers);
  if (chunks.length === 1) return chunks[0];
  const n = chunks.reduce((s, c) => s + (c[0]?.length ?? 0), 0);
  const kinds = chunks[0] ?? result.columnTypes().map((t) => (integers && int32Types.has(t.typeId) ? new Int32Array(0) : new Float64Array(0)));
  return kinds.map((kind, c) => {
    const col = kind instanceof Int32Array ? new Int32Array(n) : new Float64Array(n);
    let at = 0;
    for (const chunk of chunks) {
      col.set(chunk[c], at);
      at += chunk[c].length;
    }
    return col;
  });
}

/**
 * The result's columns chunk by chunk (DuckDB's vectors of up to 2048 rows), typed as
 * numericColumns types them. Where a column already has its JS type (DOUBLE, INTEGER), it
 * is a view of the copy the bindings made of the vector, not another copy: a day of
 * 1-minute rollup rows then costs one copy instead of two, and half the garbage.
 */
export function numericColumnChunks(result: DuckDBMaterializedResult, integers = false): NumericColumn[][] {
  const width = result.columnCount;
  const types = result.columnTypes();
  const chunks = Array.from({ length: result.chunkCount }, (_, i) => result.getChunk(i)).filter((c) => c.rowCount > 0);
  const asInt = types.map((t, c) => integers && int32Types.has(t.typeId) && !chunks.some((chunk) => hasNulls(chunk, c)));
  return chunks.map((chunk) => {
    const rows = chunk.rowCount;
    const out: NumericColumn[] = [];
    for (let c = 0; c < width; c++) {
      const reader = readers[types[c].typeId];
      if (!reader) {
        // Other types (DECIMAL, HUGEINT...): the library's accessor, value by value.
        const col = asInt[c] ? new Int32Array(rows) : new Float64Array(rows);
        const vector = chunk.getColumnVector(c);
        for (let j = 0; j < rows; j++) {
          const v = vector.getItem(j);
          col[j] = v === null ? NaN : Number(v);
        }
        out.push(col);
        continue;
      }
      const raw = bindings.data_chunk_get_vector(chunk.chunk, c);
      const values = reader.read(bindings.vector_get_data(raw, rows * reader.width), rows);
      let col: NumericColumn;
      if (asInt[c] ? values instanceof Int32Array : values instanceof Float64Array) col = values as NumericColumn;
      else if (values instanceof BigInt64Array) col = Float64Array.from(values, Number);
      else (col = asInt[c] ? new Int32Array(rows) : new Float64Array(rows)).set(values as ArrayLike<number>);
      // No validity buffer means no NULLs in this vector (an Int32 column never has one).
      const validity = bindings.vector_get_validity(raw, Math.ceil(rows / 64) * 8);
      if (validity) {
        for (let j = 0; j < rows; j += 8) {
          const byte = validity[j >> 3];
          if (byte === 0xff) continue; // eight values present
          for (let k = j; k < Math.min(rows, j + 8); k++) if (((byte >> (k & 7)) & 1) === 0) col[k] = NaN;
        }
      }
      out.push(col);
    }
    return out;
  });
}

/** Whether column c of the chunk holds a NULL. */
function hasNulls(chunk: DuckDBDataChunk, c: number): boolean {
  const rows = chunk.rowCount;
  const validity = bindings.vector_get_validity(bindings.data_chunk_get_vector(chunk.chunk, c), Math.ceil(rows / 64) * 8);
  if (!validity) return false;
  for (let j = 0; j < rows; j += 8) {
    const byte = validity[j >> 3];
    const bits = Math.min(8, rows - j);
    if ((byte & ((1 << bits) - 1)) !== (1 << bits) - 1) return true;
  }
  return false;
}
