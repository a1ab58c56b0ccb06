// The rollup format, declared once. A rollup row is one kernel cell (bucket x hop) of a
// closed period: its place (time, hop) and the statistics the WASM bucket kernel outputs
// under the same names (wasm/kernel-types.ts AggregateColumns). Everything else derives
// from this list: the in-memory columns (rows.ts), the table text and the SELECT lists
// (sql.ts), the appender's column order (append.ts). Order matters: it is the table's
// column order, and the order in which the kernel takes the pointers of rollup rows
// (kernel-layout.test.ts checks both), so a new statistic goes at the end.
import type { RollupRows } from '../../wasm/rollup-rows.js';

/** The types of a rollup column in memory: DOUBLE is a Float64Array, the others Int32Array (micros: what the table keeps). */
export type RollupColumnType = 'DOUBLE' | 'INTEGER' | 'SMALLINT';

/**
 * How rows of one cell combine into a coarser one, as the kernel's merge does
 * (docs/kernels.md): add, take the extreme, take the earliest / latest row's value that is
 * not "no value", OR the bits.
 */
export type RollupMerge = 'sum' | 'min' | 'max' | 'earliest' | 'latest' | 'bitOr';

export interface RollupColumn {
  /** The field of RollupRows, and of the kernel's output (BucketResult) it comes from. */
  key: keyof RollupRows;
  /** The column of the rollups table. */
  sql: string;
  type: RollupColumnType;
  /** NaN (the kernel's "no value") is stored as NULL. */
  nullable: boolean;
  /** The place of the row: what SQL groups by when it reduces rows onto a grid. */
  place?: true;
  /** How a statistic merges (not for the place). */
  merge?: RollupMerge;
  /**
   * What a timeline graph needs of every hop, not only of its own (the route arrays and
   * markers): the store read of an old range reads every column of the graph's hop and only
   * these of the others (server/data/sources.ts storePieces).
   */
  lean?: true;
  /**
   * Kept on disk as integer microseconds (server/store/latency-micros.ts), read back as DOUBLE
   * ms: 'latency' in an INTEGER (codes as small negative numbers), 'measurement' the same for
   * a column that never holds a code (read back by a plain division: the CASE of 'latency'
   * cost about 10% of an old range's read), 'sum' in a BIGINT (a sum of an hour's latencies
   * outgrows 32 bits). Memory keeps the DOUBLE of `type`.
   */
  micros?: RollupMicros;
}

export type RollupMicros = 'latency' | 'measurement' | 'sum';

/** The column's type in the table. */
export const storedType = (c: { type: RollupColumnType; micros?: RollupMicros }): string =>
  c.micros === 'sum' ? 'BIGINT' : c.micros ? 'INTEGER' : c.type;

export const RollupRowColumns = [
  { key: 'time', sql: 'time', type: 'DOUBLE', nullable: false, place: true, lean: true }, // start of the row's period, epoch ms
  { key: 'hop', sql: 'hop', type: 'SMALLINT', nullable: false, place: true, lean: true },
  { key: 'count', sql: 'count', type: 'INTEGER', nullable: false, merge: 'sum', lean: true }, // sent: measurements + Timeouts
  { key: 'lost', sql: 'lost', type: 'INTEGER', nullable: false, merge: 'sum', lean: true }, // Timeouts
  { key: 'sum', sql: 'sum', type: 'DOUBLE', nullable: false, merge: 'sum', lean: true, micros: 'sum' }, // of measurements
  { key: 'min', sql: 'min', type: 'DOUBLE', nullable: true, merge: 'min', micros: 'measurement' },
  { key: 'max', sql: 'max', type: 'DOUBLE', nullable: true, merge: 'max', micros: 'measurement' },
  { key: 'first', sql: 'first', type: 'DOUBLE', nullable: true, merge: 'earliest', micros: 'measurement' },
  { key: 'lastValid', sql: 'last_valid', type: 'DOUBLE', nullable: true, merge: 'latest', micros: 'measurement' },
  { key: 'jitterSum', sql: 'jitter_sum', type: 'DOUBLE', nullable: false, merge: 'sum', micros: 'sum' },
  { key: 'jitterPairs', sql: 'jitter_pairs', type: 'INTEGER', nullable: false, merge: 'sum' },
  { key: 'last', sql: 'last', type: 'DOUBLE', nullable: true, merge: 'latest', micros: 'latency' }, // latest outcome, codes too
  { key: 'flags', sql: 'flags', type: 'INTEGER', nullable: false, merge: 'bitOr', lean: true }, // CellFlag bits
] as const satisfies readonly RollupColumn[];

/**
 * The table's columns before the row's: which resolution (ms) and session a row belongs
 * to. They are not in memory (a RollupRows holds one level of one session).
 */
export const RollupOwnerColumns = [
  { sql: 'resolution', type: 'INTEGER' },
  { sql: 'session_id', type: 'INTEGER' },
] as const;

export const RollupTable = 'rollups';

/** The RollupRows fields in declared order. */
export const RollupRowKeys: readonly (keyof RollupRows)[] = RollupRowColumns.map((c) => c.key);

// Fails to compile when RollupRows (the kernel's cell) has a field this list does not declare.
type Undeclared = Exclude<keyof RollupRows, (typeof RollupRowColumns)[number]['key']>;
const everyFieldDeclared: [Undeclared] extends [never] ? true : Undeclared = true;
void everyFieldDeclared;
