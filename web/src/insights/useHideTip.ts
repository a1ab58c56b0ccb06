// The tips card: hidden when the user chose "Hide Tip" (stored user key
// Insight-HideTip-HowToUse), and hidden beside results when "Don't show tip when displaying
// results" is ticked (session key wisdomHideHowToTipWhenDisplayingResults). Getting
// Started resets both (spec 3 section 4.1).
import { useCallback, useEffect, useState } from 'react';
import { KvpKey } from '../../../server/contract/summaries';
import { getUserFlag, setUserFlag } from './api';

const ResultsKey = 'wisdomHideHowToTipWhenDisplayingResults';

export function useHideTip(active: boolean) {
  const [hidden, setHidden] = useState(false);
  const [hideWithResults, setHideWithResultsState] = useState(() => {
    try {
      return sessionStorage.getItem(ResultsKey) === 'true';
    } catch {
      return false;
    }
  });
  useEffect(() => {
    if (!active) return;
    let live = true;
    getUserFlag(KvpKey.InsightHideTip).then((v) => live && setHidden(v), () => undefined);
    return () => {
      live = false;
    };
  }, [active]);
  const setHideWithResults = useCallback((v: boolean) => {
    setHideWithResultsState(v);
    try {
      sessionStorage.setItem(ResultsKey, String(v));
    } catch {
      /* session only */
    }
  }, []);
  const hide = useCallback(() => {
    setHidden(true);
    setHideWithResults(true);
    setUserFlag(KvpKey.InsightHideTip, true).catch((e) => console.warn('Insights tip setting not saved', e));
  }, [setHideWithResults]);
  const reset = useCallback(() => {
    setHidden(false);
    setHideWithResults(false);
    setUserFlag(KvpKey.InsightHideTip, false).catch((e) => console.warn('Insights tip setting not saved', e));
  }, [setHideWithResults]);
  return { hidden, hideWithResults, setHideWithResults, hide, reset };
}
