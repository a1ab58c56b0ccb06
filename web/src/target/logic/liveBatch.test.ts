import { describe, expect, it } from 'vitest';
import { liveBatchDelayMs } from './liveBatch';
import { RowRefreshBatchMs, SummaryRowRefreshGapMs } from './constants';

describe('liveBatchDelayMs', () => {
  it('is the batch window when the last batch is long past (or there was none)', () => {
    expect(liveBatchDelayMs(10_000, -Infinity, RowRefreshBatchMs, SummaryRowRefreshGapMs)).toBe(RowRefreshBatchMs);
    expect(liveBatchDelayMs(10_000, 8_000, RowRefreshBatchMs, SummaryRowRefreshGapMs)).toBe(RowRefreshBatchMs);
  });

  it('waits out the least gap after the previous batch', () => {
    // Reports again 200 ms after a batch: acted on 1 s after that batch, 800 ms from now.
    expect(liveBatchDelayMs(10_200, 10_000, RowRefreshBatchMs, SummaryRowRefreshGapMs)).toBe(800);
    expect(liveBatchDelayMs(10_900, 10_000, RowRefreshBatchMs, SummaryRowRefreshGapMs)).toBe(RowRefreshBatchMs);
  });

  it('without a least gap batches every window (the target window)', () => {
    expect(liveBatchDelayMs(10_010, 10_000, RowRefreshBatchMs, 0)).toBe(RowRefreshBatchMs);
  });
});
