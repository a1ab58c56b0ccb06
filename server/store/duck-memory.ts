// DuckDB's memory on an appliance that runs for months (issue 45 item 7, docs/store.md "DuckDB's
// memory"). Left to itself DuckDB may hold 80% of the machine's RAM: its buffer pool keeps every
// block it has read or written until that limit makes it evict, so the process grows with the
// database file for as long as there is RAM. The store sets a limit instead; beyond it DuckDB
// evicts cached blocks first and then spills the state of large queries (sorts, joins,
// aggregates) to a temporary directory inside the data directory (its mode 0700 keeps it private).
import { totalmem } from 'node:os';
import { join } from 'node:path';
import type { Queryable } from './db.js';

/**
 * The memory the process may use: the machine's RAM, or less when the OS limits the process
 * (a container's cgroup limit, which Node reads; 0 or a figure past the RAM means none). In a
 * container given 1 GiB on a large host, the host's RAM would size DuckDB past what the
 * container may use, and the kernel would kill the appliance.
 */
export function availableMemoryBytes(total = totalmem(), constrained = process.constrainedMemory()): number {
  return constrained > 0 && constrained < total ? constrained : total;
}

/** The default limit: a quarter of the memory the process may use, at least 256 MiB and at most 1 GiB. */
export function defaultStoreMemoryMb(totalBytes = availableMemoryBytes()): number {
  const quarter = Math.floor(totalBytes / 4 / 1024 / 1024);
  return Math.min(1024, Math.max(256, quarter));
}

/** Where DuckDB spills (created by DuckDB when first needed, emptied when the store closes). */
export const spillDirOf = (dataDir: string) => join(dataDir, 'duckdb-spill');

/** The options DuckDBInstance.create takes for the store's file. */
export function duckMemoryOptions(dataDir: string, memoryMb = defaultStoreMemoryMb()): Record<string, string> {
  return { memory_limit: `${memoryMb}MiB`, temp_directory: spillDirOf(dataDir) };
}

/** DuckDB's own account of its memory (duckdb_memory(): the buffer pool, queries' state) and of what it spilled. */
export interface StoreMemory {
  /** Bytes DuckDB's buffer manager holds now. */
  usedBytes: number;
  /** Bytes spilled to its temporary directory now. */
  spilledBytes: number;
  /** The limit it evicts and spills beyond. */
  limitBytes: number;
}

export async function storeMemory(q: Queryable): Promise<StoreMemory> {
  const r = await q.one<{ used: number; spilled: number; limit: string }>(
    `SELECT sum(memory_usage_bytes)::DOUBLE AS used, sum(temporary_storage_bytes)::DOUBLE AS spilled, current_setting('memory_limit') AS "limit" FROM duckdb_memory()`,
  );
  return { usedBytes: Number(r?.used ?? 0), spilledBytes: Number(r?.spilled ?? 0), limitBytes: parseDuckBytes(r?.limit ?? '') };
}

/** DuckDB's "953.6 MiB" / "1.0 GiB" / "512.0 KiB" / "1000 bytes" as bytes (NaN when unreadable). */
export function parseDuckBytes(text: string): number {
  const m = /^\s*([\d.]+)\s*(bytes|[KMGTP]i?B)?\s*$/i.exec(text);
  if (!m) return NaN;
  const unit = (m[2] ?? 'bytes').toUpperCase();
  const powers: Record<string, number> = { BYTES: 0, KB: 1, KIB: 1, MB: 2, MIB: 2, GB: 3, GIB: 3, TB: 4, TIB: 4, PB: 5, PIB: 5 };
  const base = unit.includes('I') ? 1024 : 1000;
  return Math.round(Number(m[1]) * base ** (powers[unit] ?? NaN));
}
