// The agent link's checks of a batch (issue 39 item 8) at their edges: the largest step and
// the time window are taken, one past them is refused with a reason naming it.
import { describe, expect, it } from 'vitest';
import { batchProblem, EarliestTime, MaxAheadMs, MaxSeqStep, seqProblem, timeProblem } from './batch-checks.js';

describe('agent batch checks', () => {
  it('takes a step of up to MaxSeqStep from the last batch, and refuses a longer one', () => {
    expect(seqProblem(0, 1)).toBeUndefined();
    expect(seqProblem(41, 41 + MaxSeqStep)).toBeUndefined();
    expect(seqProblem(41, 42 + MaxSeqStep)).toMatch(`Batch ${42 + MaxSeqStep} skips ${MaxSeqStep} sequence numbers after batch 41`);
    // The number that wedged a link (issue 39): from any start a real agent has.
    expect(seqProblem(5, Number.MAX_SAFE_INTEGER)).toMatch(/skips/);
  });

  it('takes times from 2000-01-01 to a day ahead of the server, and refuses the rest', () => {
    const now = Date.UTC(2026, 10, 29, 2, 0, 0);
    expect(timeProblem(EarliestTime, now)).toBeUndefined();
    expect(timeProblem(EarliestTime - 1, now)).toMatch(/before 2000-01-01/);
    expect(timeProblem(now + MaxAheadMs, now)).toBeUndefined();
    expect(timeProblem(now + MaxAheadMs + 1, now)).toMatch(/more than a day ahead/);
    expect(timeProblem(8.64e15, now)).toMatch(/more than a day ahead/);
  });

  it('names the first round out of range and its session, and says the batch was not stored', () => {
    const now = Date.UTC(2026, 10, 29, 2, 0, 0);
    const good = { traceId: 3, time: now - 1000 };
    expect(batchProblem(0, 1, [good, good], now)).toBeUndefined();
    expect(batchProblem(0, 1, [good, { traceId: 4, time: 0 }, { traceId: 5, time: 8.64e15 }], now)).toBe(
      'A round of session 4: Time 0 is before 2000-01-01; check the agent machine\'s clock. The batch was not stored.',
    );
    expect(batchProblem(0, 2 + MaxSeqStep, [good], now)).toMatch(/skips .* The batch was not stored\.$/);
  });
});
