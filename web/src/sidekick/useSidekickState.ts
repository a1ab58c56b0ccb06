// The Sidekick state: loaded on open, polled while discovery finds targets (the cards appear
// one by one) and every 15 s while running, and reloaded 500 ms after Get Started (spec 3
// section 4.2). A failed load shows "Error loading Sidekick status: {message}" after 1 s,
// not for a 4xx answer (spec 3 section 8).
import { useCallback, useEffect, useRef, useState } from 'react';
import { SidekickStage, SidekickStatusReloadMs, type SidekickState } from '../../../server/contract/sidekick';
import { reportError } from '../state/reportError';
import { sidekickState, startDiscovery } from './api';
import { DiscoveryErrorPrefix, reportsStatusError, StatusErrorPrefix } from './logic/statusError';

export const StatusErrorDelayMs = 1000;
const DiscoveringPollMs = 2000;
const RunningPollMs = 15_000;

export interface SidekickStateHook {
  /** undefined while loading; null when the server answered 204. */
  state: SidekickState | null | undefined;
  reload: () => void;
  /** Get Started, and Clear All and Restart: starts discovery, reloads 500 ms later. */
  start: (agentId?: number) => void;
  starting: boolean;
}

export function useSidekickState(): SidekickStateHook {
  const [state, setState] = useState<SidekickState | null | undefined>(undefined);
  const [starting, setStarting] = useState(false);
  const alive = useRef(true);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  const later = (fn: () => void, ms: number) => {
    const t = setTimeout(() => (timers.current.delete(t), alive.current && fn()), ms);
    timers.current.add(t);
  };

  const reload = useCallback(() => {
    sidekickState().then(
      (s) => alive.current && setState(s),
      (e) => {
        if (reportsStatusError(e)) later(() => reportError(e, { prefix: StatusErrorPrefix }), StatusErrorDelayMs);
      },
    );
  }, []);

  const start = useCallback((agentId?: number) => {
    setStarting(true);
    startDiscovery(agentId).then(
      () => later(() => (setStarting(false), reload()), SidekickStatusReloadMs),
      (e) => {
        setStarting(false);
        reportError(e, { prefix: DiscoveryErrorPrefix });
      },
    );
  }, [reload]);

  useEffect(() => {
    alive.current = true;
    reload();
    const all = timers.current;
    return () => {
      alive.current = false;
      for (const t of all) clearTimeout(t);
    };
  }, [reload]);

  const stage = state?.Stage;
  useEffect(() => {
    if (stage !== SidekickStage.DiscoveringTargets && stage !== SidekickStage.Running) return;
    const t = setInterval(reload, stage === SidekickStage.DiscoveringTargets ? DiscoveringPollMs : RunningPollMs);
    return () => clearInterval(t);
  }, [stage, reload]);

  return { state, reload, start, starting };
}
