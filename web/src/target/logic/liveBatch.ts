// When a live list's batch of hub reports is acted on (spec 2: rows refresh about every
// 150 ms): the batch window after the first report, and no sooner than the list's least gap
// after the previous batch. A single target's round reports at once, so its batches are a
// round apart anyway; a summary's targets report all the time, and a batch every 150 ms
// re-read 100 targets' rows back to back and moved every graph's viewport at each of them.

/** Milliseconds from the first report of a batch (at `nowMs`) until the batch is acted on. */
export function liveBatchDelayMs(nowMs: number, lastBatchMs: number, batchMs: number, minGapMs: number): number {
  return Math.max(batchMs, lastBatchMs + minGapMs - nowMs);
}
