// The kernels' pieces of a store segment on PostgreSQL: what server/data/sources.ts
// storePieces returns from DuckDB for the same segment (raw samples; rollup rows as stored,
// or reduced onto the grid beyond PlainRowsPerBucket rows a bucket; with `detailHop` the
// hop's every column and the lean columns of all hops, that hop skipped). The wiring into
// sources.ts picks this per backend (docs/store.md "Samples on PostgreSQL").
import { RollupResolutionsMs } from '../../rollups/levels.js';
import { PlainRowsPerBucket, planCover, type Grid, type Piece, type Segment } from '../../data/sources.js';
import { readReducedRollups, readSamples, readStoredRollups, type PgReader } from './samples-read.js';

export async function pgStorePieces(pool: PgReader, sessionId: number, g: Segment, grid: Grid, detailHop?: number): Promise<Piece[]> {
  if (g.level < 0) return [{ kind: 'samples', samples: await readSamples(pool, sessionId, g.from, g.to) }];
  const resolution = RollupResolutionsMs[g.level];
  if (grid.period / resolution > PlainRowsPerBucket) return [{ kind: 'rows', rows: await readReducedRollups(pool, resolution, sessionId, g.from, g.to, grid) }];
  if (!detailHop) return [{ kind: 'rows', rows: await readStoredRollups(pool, resolution, sessionId, g.from, g.to, { kind: 'all' }, 'hop') }];
  const [own, lean] = await Promise.all([
    readStoredRollups(pool, resolution, sessionId, g.from, g.to, { kind: 'hop', hop: detailHop }, 'hop'),
    readStoredRollups(pool, resolution, sessionId, g.from, g.to, { kind: 'lean' }, 'hop'),
  ]);
  return [
    { kind: 'rows', rows: own },
    { kind: 'rows', rows: lean, skipHop: detailHop },
  ];
}

/** sources.ts cover on PostgreSQL: [from, to) of a session from the store alone, given its marks. */
export async function pgCover(pool: PgReader, sessionId: number, from: number, to: number, maxResolution: number, marks: number[], grid: Grid, detailHop?: number): Promise<Piece[]> {
  const parts = await Promise.all(planCover(from, to, maxResolution, marks).map((g) => pgStorePieces(pool, sessionId, g, grid, detailHop)));
  return parts.flat();
}
