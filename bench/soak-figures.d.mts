// Types of bench/soak-figures.mjs for its unit test.
export interface Retention { rawDays: number; minuteDays: number }
export interface PerSample { raw: number; minute: number; coarse: number; unpacked?: number }
export const BytesPerHopSample: Required<PerSample>;
export const PackedAfterMs: number;
export function unpackedShare(now: number, elapsedMs: number): number;
export function predictedDatabaseBytes(a: { baseBytes: number; samples: number; elapsedMs: number; retention: Retention; now?: number; perSample?: PerSample }): number;
export function slopePerHour(points: [number, number][]): number;
export interface SoakPoint { minutes: number; rss: number; heap: number; fds: number; clients?: number; file: number; predicted: number; delayP99: number }
export function soakGoals(points: SoakPoint[]): { goal: string; met: boolean; figure: string }[];
