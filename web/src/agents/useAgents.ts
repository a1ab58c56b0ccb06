// The agent list (and, for the Agents page, whether remote agents are on and the
// entitlement): read at once, every 15 s (spec 1), and whenever the hub says
// CloudConnectAccountUpdated. A failed poll is reported once per failure streak. With remote
// agents off (GetIsMagneto false) the entitlement is not asked for (it would answer 403).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Entitlement } from '../../../server/contract/agents';
import { invoke, subscribe } from '../hub/connection';
import { reportError } from '../state/reportError';
import * as api from './api';
import type { AgentRowSource } from './logic/agentRows';

export const AgentListPollMs = 15_000;

export function useAgents({ withEntitlement = false }: { withEntitlement?: boolean } = {}) {
  const [agents, setAgents] = useState<AgentRowSource[] | null>(null);
  const [entitlement, setEntitlement] = useState<Entitlement | null>(null);
  const [magneto, setMagneto] = useState<boolean | null>(null);
  const failing = useRef(false);
  const reload = useCallback(async () => {
    try {
      const list = await api.getAgents();
      setAgents(list ?? []);
      if (withEntitlement) {
        const on = await invoke('GetIsMagneto');
        setMagneto(on);
        setEntitlement(on ? await api.getEntitlement() : null);
      }
      failing.current = false;
    } catch (err) {
      if (!failing.current) reportError(err);
      failing.current = true;
    }
  }, [withEntitlement]);
  useEffect(() => {
    void reload();
    const timer = setInterval(() => void reload(), AgentListPollMs);
    const off = subscribe('CloudConnectAccountUpdated', () => void reload());
    return () => {
      clearInterval(timer);
      off();
    };
  }, [reload]);
  return { agents, entitlement, magneto, reload };
}
