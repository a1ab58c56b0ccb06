// Multi-resolution rollups kept at ingest: 1 minute from raw samples, 10 minutes from the
// 1-minute rows, 1 hour from the 10-minute rows. A period is rolled up once it is closed
// (no more samples can land in it), so rollup rows are appended, never updated.

export const RollupResolutionsMs = [60_000, 600_000, 3_600_000] as const;

/** Samples may arrive this late (a round completes after its timeout) and still count. */
export const LateSampleGraceMs = 15_000;

export const floorTo = (t: number, step: number) => Math.floor(t / step) * step;
export const ceilTo = (t: number, step: number) => Math.ceil(t / step) * step;
