// The selected agent's open targets (TARGETS list), reloaded with the agent list.
import { useCallback, useEffect, useState } from 'react';
import type { AgentTarget } from '../../../server/contract/agents';
import { subscribe } from '../hub/connection';
import * as api from './api';

export function useAgentTargets(agentId: number | null, version: unknown) {
  const [targets, setTargets] = useState<AgentTarget[]>([]);
  const reload = useCallback(() => {
    if (agentId === null) return setTargets([]);
    api.agentTargets(agentId).then((t) => setTargets(t ?? []), (e) => console.warn('agentTargets failed', e));
  }, [agentId]);
  useEffect(() => reload(), [reload, version]);
  useEffect(() => subscribe('SessionsChanged', reload), [reload]);
  return { targets, reload };
}
