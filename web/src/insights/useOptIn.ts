// The opt-in state (stored user key Insight-Opt-In): loading, invited, or opted in.
// "Yes, I will help!" saves true; "No Thanks" only closes the panel (spec 3 section 4.1).
import { useCallback, useEffect, useState } from 'react';
import { KvpKey } from '../../../server/contract/summaries';
import { getUserFlag, setUserFlag } from './api';

export type OptInState = 'loading' | 'invited' | 'optedIn';

export function useOptIn(active: boolean) {
  const [state, setState] = useState<OptInState>('loading');
  useEffect(() => {
    if (!active) return;
    let live = true;
    getUserFlag(KvpKey.InsightOptIn).then(
      (v) => live && setState(v ? 'optedIn' : 'invited'),
      () => live && setState('invited'), // storage read failures are logged only (spec 3 section 8)
    );
    return () => {
      live = false;
    };
  }, [active]);
  const optIn = useCallback(() => {
    setState('optedIn');
    setUserFlag(KvpKey.InsightOptIn, true).catch((e) => console.warn('Insights opt-in not saved', e));
  }, []);
  return { state, optIn };
}
