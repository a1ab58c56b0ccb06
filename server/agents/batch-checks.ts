// What the agent link refuses in a batch before anything of it is stored (issue 39 item 8),
// beyond the message's JSON schema (agent/protocol.ts), which cannot know the link's last
// sequence number nor the server's clock. A refused batch is answered `refused` with the
// reason: the agent drops it and goes on with the next, so one bad batch neither wedges the
// link nor comes back forever (a commit that fails closes the link 1011, and the agent sends
// the batch again; a batch that fails by its content must never get there).

/**
 * Largest step from the link's newest batch to the next one. An agent numbers its batches one
 * after another; it skips numbers only for batches its spool dropped (older than its age limit,
 * or over its size) and for the block of 1,000 reserved numbers each restart leaves behind
 * (agent/spool.ts). A batch leaves at most once a millisecond (the batch window's timer), so
 * 2^40 numbers are more than 34 years of a batch every millisecond: no agent skips that many.
 * And the end of the exact integers (2^53, the schema's maximum) is then at least 8,192 steps
 * away, so one wrong number (a torn spool line, a bug, a forged frame) is refused instead of
 * becoming the link's newest batch, after which every real batch would count as already stored.
 */
export const MaxSeqStep = 2 ** 40;

/** Earliest round or route-change time taken: 2000-01-01 UTC, before any agent ran (ms). */
export const EarliestTime = Date.UTC(2000, 0, 1);

/**
 * How far ahead of the server's clock a time may be (ms): a day covers any clock an agent
 * keeps in sync, however badly; beyond it a time is a broken clock or a forged frame, and it
 * would move the session's watermark so far that every later round counted as a duplicate
 * (near the end of JavaScript's dates it made the ingest commit itself fail).
 */
export const MaxAheadMs = 24 * 3600 * 1000;

/** Why the sequence number cannot follow `last` (the link's newest batch taken), or undefined. */
export function seqProblem(last: number, seq: number): string | undefined {
  if (seq - last > MaxSeqStep) {
    return `Batch ${seq} skips ${seq - last - 1} sequence numbers after batch ${last}; an agent's batches follow one another (at most ${MaxSeqStep} apart).`;
  }
  return undefined;
}

/** Why a time (ms since 1970) is not one the server takes, or undefined. */
export function timeProblem(time: number, now: number): string | undefined {
  if (time < EarliestTime) return `Time ${time} is before 2000-01-01; check the agent machine's clock.`;
  if (time > now + MaxAheadMs) return `Time ${time} is more than a day ahead of the server's clock (${now}); check the agent machine's clock.`;
  return undefined;
}

/** Why the batch is refused, or undefined: its sequence number, then the first round with a time out of range. */
export function batchProblem(last: number, seq: number, rounds: readonly { traceId: number; time: number }[], now: number): string | undefined {
  const step = seqProblem(last, seq);
  if (step) return `${step} The batch was not stored.`;
  for (const r of rounds) {
    const t = timeProblem(r.time, now);
    if (t) return `A round of session ${r.traceId}: ${t} The batch was not stored.`;
  }
  return undefined;
}
