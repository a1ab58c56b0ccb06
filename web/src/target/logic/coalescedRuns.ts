// Runs an async job at most once at a time: asking while it runs queues one more run after it
// (however often it was asked meanwhile), so the last ask is always answered by a run that
// started after it, and runs never pile up. The live grids read their rows through it: the
// hub's batches (every 150 ms) and focus changes ask for a read, and a read that takes longer
// than a batch no longer overlaps the next one or is cancelled by it.
export interface CoalescedRuns {
  /** Asks for a run: now when idle, else once after the current run. */
  request(): void;
  /** No further runs (a run in progress finishes; its caller ignores the answer). */
  stop(): void;
}

export function coalescedRuns(run: () => Promise<unknown>): CoalescedRuns {
  let running = false;
  let again = false;
  let stopped = false;
  const start = () => {
    running = true;
    again = false;
    let job: Promise<unknown>;
    try {
      job = run();
    } catch (err) {
      job = Promise.reject(err);
    }
    void job
      .catch(() => undefined)
      .then(() => {
        running = false;
        if (again && !stopped) start();
      });
  };
  return {
    request() {
      if (stopped) return;
      if (running) again = true;
      else start();
    },
    stop() {
      stopped = true;
      again = false;
    },
  };
}
