// The account's sessions: read at once and again whenever the hub says SessionsChanged
// (sessionsVersionAtom) or the page asks (after a command); the first read may be the one
// started with the console (preload.ts). A failed read only stops the
// spinner (spec 2 section 8: "session list failure just stops the spinner"), logged.
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import type { Session } from '../../../server/contract/sessions';
import { sessionsVersionAtom } from '../hub/hubEvents';
import { getSessions } from './api';
import { takePreloadedSessions } from './preload';

export function useSessions() {
  const version = useAtomValue(sessionsVersionAtom);
  const [sessions, setSessions] = useState<Session[]>([]);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setLoading(true);
    // The first read may have started with the console (preload.ts); if it failed, ask again.
    const early = takePreloadedSessions();
    (early ? early.catch(() => getSessions()) : getSessions())
      .then((list) => live && setSessions(list ?? []), (e) => console.warn('GET /api/Sessions failed', e))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [version, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { sessions, loading, reload };
}
