// Runs the tests of one target over a range and follows their progress: registered for the
// target's WisdomTestProgressUpdated while the panel is open, "Testing: {title}" while a run
// is in progress. A failed run is silently ignored and clears the in-progress flag (spec 3
// section 8); an auto-run asks for the default range first (720 minutes).
import { useCallback, useEffect, useRef, useState } from 'react';
import { WisdomAutoRunMinutes, type WisdomResult, type WisdomTimeRange } from '../../../server/contract/insights';
import { keepRegistered, subscribe } from '../hub/connection';
import { getWisdomDefaultTimeRange, runTargetWisdomTests } from './api';

export interface WisdomRunState {
  running: boolean;
  /** The test running now (from the hub), or the first one before any event arrived. */
  testing: string;
  result: WisdomResult | null;
  range: WisdomTimeRange | null;
}

export function useWisdomRun(targetId: string | undefined, active: boolean, includeDetails: boolean) {
  const [state, setState] = useState<WisdomRunState>({ running: false, testing: '', result: null, range: null });
  const runId = useRef(0);

  useEffect(() => {
    setState({ running: false, testing: '', result: null, range: null });
    runId.current++;
  }, [targetId]);

  useEffect(() => {
    if (!targetId || !active) return;
    const leave = keepRegistered('RegisterForWisdom', 'UnregisterForWisdom', targetId);
    const off = subscribe('WisdomTestProgressUpdated', (p) => setState((s) => (s.running ? { ...s, testing: p.TestTitle } : s)));
    return () => {
      off();
      leave();
    };
  }, [targetId, active]);

  const run = useCallback(
    async (range: WisdomTimeRange) => {
      if (!targetId) return;
      const id = ++runId.current;
      setState((s) => ({ ...s, running: true, testing: 'Preparing data', range }));
      try {
        const result = await runTargetWisdomTests(targetId, range.Start, range.End, includeDetails);
        if (id === runId.current) setState({ running: false, testing: '', result, range });
      } catch (e) {
        console.warn('Insights run failed', e);
        if (id === runId.current) setState((s) => ({ ...s, running: false, testing: '' }));
      }
    },
    [targetId, includeDetails],
  );

  /** The default 12-hour window; nothing runs when there is none. Answers the range run. */
  const autoRun = useCallback(async (): Promise<WisdomTimeRange | null> => {
    if (!targetId) return null;
    try {
      const range = await getWisdomDefaultTimeRange(targetId, WisdomAutoRunMinutes);
      if (!range) return null;
      void run(range);
      return range;
    } catch (e) {
      console.warn('Insights default range not available', e);
      return null;
    }
  }, [targetId, run]);

  return { ...state, run, autoRun };
}
