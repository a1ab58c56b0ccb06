// The trace interval the control panel shows: the target's own (TraceInterval, seconds) once
// its details arrive, or the one the user chose. Details may answer after the choice (a slow
// first load) and must not put the old interval back over the user's.
import { useEffect, useRef, useState } from 'react';
import { DefaultTraceIntervalMs } from '../../../server/contract/targets';

export function useTraceInterval(targetId: string | undefined, detailsIntervalSeconds: number | undefined) {
  const [intervalMs, setIntervalMs] = useState(DefaultTraceIntervalMs);
  const chosenFor = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (detailsIntervalSeconds !== undefined && chosenFor.current !== targetId) setIntervalMs(Math.round(detailsIntervalSeconds * 1000));
    // Only a new answer sets it; a new target's details bring one.
  }, [detailsIntervalSeconds]);
  const chooseInterval = (ms: number) => {
    chosenFor.current = targetId;
    setIntervalMs(ms);
  };
  return { intervalMs, chooseInterval };
}
