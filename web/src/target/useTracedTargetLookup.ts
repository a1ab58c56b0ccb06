// Whether the account already traces a typed target (logic/tracedTarget): looked up among the
// rows of All Targets (every running and paused target) when the user presses Enter. Only
// where summaries exist (Professional, not LiveShare); a failed lookup does not stop the start.
import { useAtomValue } from 'jotai';
import { useCallback } from 'react';
import { LicenseMode } from '../../../server/contract/account';
import type { TargetRow } from '../../../server/contract/targets';
import { getSummaries } from '../api/summaries';
import { currentUserAtom } from '../state/user';
import { summaryRows } from '../summary/api';
import { tracedTargetFor } from './logic/tracedTarget';

/** The statistics of the lookup do not matter: the last second keeps it cheap. */
const LookupRangeMs = 1000;

export function useTracedTargetLookup(): (text: string) => Promise<TargetRow | null> {
  const user = useAtomValue(currentUserAtom);
  const summaries = user?.LicenseMode === LicenseMode.Professional && !user.IsLiveshare;
  return useCallback(
    async (text: string) => {
      if (!summaries || !text.trim()) return null;
      try {
        const all = (await getSummaries())?.find((s) => s.IsAllTargets);
        if (!all) return null;
        const now = Date.now();
        const answer = await summaryRows(all.UniqueID, { startMs: now - LookupRangeMs, endMs: now });
        return tracedTargetFor(text, answer?.Rows ?? []);
      } catch (e) {
        console.warn('Looking up the traced targets failed', e);
        return null;
      }
    },
    [summaries],
  );
}
