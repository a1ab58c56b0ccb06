// Troubleshoot (spec 3 section 2.5: This Target / All Targets): runs Insights on the chosen
// targets over their data so far (up to the 12-hour auto-run window) and keeps each verdict.
import { useCallback, useRef, useState } from 'react';
import { WisdomAutoRunMinutes, WisdomMinimumDataMs, type WisdomResult } from '../../../server/contract/insights';
import type { SidekickTarget } from '../../../server/contract/sidekick';
import { errorMessage } from '../api/errors';
import { getWisdomDefaultTimeRange, runTargetWisdomTests } from '../insights/api';

export interface Verdict {
  target: SidekickTarget;
  result?: WisdomResult;
  error?: string;
  /** Why Insights did not run yet (too little data). */
  notRun?: string[];
}

export interface Troubleshoot {
  /** The targets of the open run, null when no run was asked for. */
  verdicts: Verdict[] | null;
  running: boolean;
  run: (targets: SidekickTarget[]) => void;
  close: () => void;
}

async function verdictOf(target: SidekickTarget): Promise<Verdict> {
  try {
    const range = await getWisdomDefaultTimeRange(target.WebTargetID, WisdomAutoRunMinutes);
    // A trace with a single round has no range to analyse yet.
    if (!range || Date.parse(range.End) <= Date.parse(range.Start)) {
      return { target, notRun: [`${target.Label} has too little data so far: Insights need at least ${WisdomMinimumDataMs / 60_000} minutes.`] };
    }
    const result = await runTargetWisdomTests(target.WebTargetID, range.Start, range.End, false);
    return { target, result: result ?? undefined };
  } catch (e) {
    return { target, error: errorMessage(e) };
  }
}

export function useTroubleshoot(): Troubleshoot {
  const [verdicts, setVerdicts] = useState<Verdict[] | null>(null);
  const [running, setRunning] = useState(false);
  const generation = useRef(0);
  const run = useCallback((targets: SidekickTarget[]) => {
    const mine = ++generation.current;
    const traced = targets.filter((t) => t.WebTargetID);
    setVerdicts(traced.map((target) => ({ target })));
    setRunning(true);
    // One after the other: Insights runs are heavy, and the verdicts fill in as they come.
    void (async () => {
      for (const [i, t] of traced.entries()) {
        const v = await verdictOf(t);
        if (generation.current !== mine) return;
        setVerdicts((list) => list && list.map((x, j) => (j === i ? v : x)));
      }
      if (generation.current === mine) setRunning(false);
    })();
  }, []);
  const close = useCallback(() => {
    generation.current++;
    setVerdicts(null);
    setRunning(false);
  }, []);
  return { verdicts, running, run, close };
}
