// The agent list and entitlement: read at once, every 15 s (spec 1), and whenever the hub
// says CloudConnectAccountUpdated. A failed poll is reported once per failure streak.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Entitlement } from '../../../server/contract/agents';
import { subscribe } from '../hub/connection';
import { reportError } from '../state/reportError';
import * as api from './api';
import type { AgentRowSource } from './logic/agentRows';

export const AgentListPollMs = 15_000;

export function useAgents() {
  const [agents, setAgents] = useState<AgentRowSource[] | null>(null);
  const [entitlement, setEntitlement] = useState<Entitlement | null>(null);
  const failing = useRef(false);
  const reload = useCallback(async () => {
    try {
      const [list, e] = await Promise.all([api.getAgents(), api.getEntitlement()]);
      setAgents(list ?? []);
      setEntitlement(e);
      failing.current = false;
    } catch (err) {
      if (!failing.current) reportError(err);
      failing.current = true;
    }
  }, []);
  useEffect(() => {
    void reload();
    const timer = setInterval(() => void reload(), AgentListPollMs);
    const off = subscribe('CloudConnectAccountUpdated', () => void reload());
    return () => {
      clearInterval(timer);
      off();
    };
  }, [reload]);
  return { agents, entitlement, reload };
}
