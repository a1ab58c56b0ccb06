// The agents the target window knows (hub GetAgents): for the Agent picker, the Agent column's
// tooltip, "via {agent}" and its offline marker. Read at once, every 15 s (spec 1's agent list
// poll) and on CloudConnectAccountUpdated (an agent connected, went away, was renamed), so an
// agent that drops shows offline here without a reload. A failure keeps the last list (logged).
import { useEffect, useState } from 'react';
import type { AgentItem } from '../../../server/contract/agents';
import { invoke, subscribe } from '../hub/connection';
import { AgentListPollMs } from '../agents/useAgents';

/** `enabled` false (a LiveShare visitor, who may not read the account's agents): an empty list. */
export function useAgentList(enabled = true): AgentItem[] {
  const [agents, setAgents] = useState<AgentItem[]>([]);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    const reload = () =>
      invoke('GetAgents').then(
        (list) => live && setAgents(list ?? []),
        (e) => console.warn('GetAgents failed', e),
      );
    void reload();
    const timer = setInterval(reload, AgentListPollMs);
    const off = subscribe('CloudConnectAccountUpdated', () => void reload());
    return () => {
      live = false;
      clearInterval(timer);
      off();
    };
  }, [enabled]);
  return agents;
}
