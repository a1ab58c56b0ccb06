// The users the signed-in user may impersonate, loaded once per visit of the screen.
import { useEffect, useState } from 'react';
import type { ImpersonationCandidate } from '../../../server/contract/account';
import { reportError } from '../state/reportError';
import { listCandidates } from './api';

export function useImpersonationCandidates() {
  const [candidates, setCandidates] = useState<ImpersonationCandidate[]>();
  useEffect(() => {
    let live = true;
    listCandidates()
      .then((list) => live && setCandidates(list))
      .catch((e: unknown) => {
        if (live) setCandidates([]);
        reportError(e, { prefix: 'Could not load the users you may impersonate: ' });
      });
    return () => {
      live = false;
    };
  }, []);
  return candidates;
}
