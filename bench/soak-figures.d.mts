// Types of bench/soak-figures.mjs for its unit test.
export interface Retention { rawDays: number; minuteDays: number }
export interface Stored { raw: number; rollupRow: number; unpacked?: number }
export const StoredBytes: Required<Stored>;
export const RowsPerHopMinute: { minute: number; coarse: number };
export const PackedAfterMs: number;
export function unpackedShare(now: number, elapsedMs: number): number;
export function predictedDatabaseBytes(a: { baseBytes: number; samples: number; elapsedMs: number; retention: Retention; intervalMs: number; now?: number; bytes?: Stored }): number;
export function slopePerHour(points: [number, number][]): number;
export interface SoakPoint { minutes: number; rss: number; heap: number; fds: number; clients?: number; file: number; predicted: number; delayP99: number }
export function soakGoals(points: SoakPoint[]): { goal: string; met: boolean; figure: string }[];
