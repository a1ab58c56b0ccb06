// Types of bench/hub-split.mjs for its unit test.
export interface Quantiles { n: number; p50: number; p99: number; max: number }
export interface Fanout { frame: string; connections: number; askedAt: number; firstWriteAt: number; lastWriteAt: number }
export function quantiles(values: number[]): Quantiles;
export function hubDelaySplit(
  fanouts: Fanout[],
  receipts: number[],
  event?: string,
): Record<'ingest' | 'firstWrite' | 'lastWrite' | 'toMessage' | 'afterLastWrite' | 'parse' | 'total', Quantiles> & { events: number; unmatched: number };
export const FanoutMarkName: string;
