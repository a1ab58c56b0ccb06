// What Get Started will trace, for the welcome screen (GET /api/Sidekick/PlannedSources),
// read again when the agent picked changes. A failure leaves the list out and says why: the
// screen's job (starting) goes on.
import { useEffect, useState } from 'react';
import type { SidekickPlannedSource } from '../../../server/contract/sidekick';
import { errorMessage } from '../api/errors';
import { plannedSources } from './api';

export function usePlannedSources(agentId: number | undefined) {
  const [sources, setSources] = useState<SidekickPlannedSource[]>();
  const [failure, setFailure] = useState<string>();
  useEffect(() => {
    let live = true;
    setFailure(undefined);
    plannedSources(agentId)
      .then((list) => live && setSources(list ?? []))
      .catch((e: unknown) => live && setFailure(errorMessage(e)));
    return () => {
      live = false;
    };
  }, [agentId]);
  return { sources, failure };
}
