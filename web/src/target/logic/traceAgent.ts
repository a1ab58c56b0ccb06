// The agent of a target as the target window shows it (spec 2 "Target window", "Time graph",
// section 6): "via {agent name}" in the heading with an offline marker, the agent name on
// each timeline graph (red when offline), and the Agent column, the last two only in
// multi-agent mode (more than one agent known to the console, as for the Agent picker).
import type { ColumnDef } from '../../../../server/contract/targets';
import { agentPickerVisible, type AgentItem } from './agentPicker';

export interface TraceAgent {
  name: string;
  /** The agent is known and offline: the heading and graphs mark it. */
  offline: boolean;
}

/**
 * The session's agent by its HubSentinelID: from the agent list when the console knows it
 * (online state included); else by the name the server put in the rows' Agent column (a user
 * without CloudConnectManagement sees only the Local Machine in the list); else by its id.
 */
export function traceAgent(sentinelId: number, agents: readonly AgentItem[], serverName?: string): TraceAgent {
  const known = agents.find((a) => a.ID === sentinelId);
  if (known) return { name: known.Name, offline: !known.IsOnline };
  return { name: serverName || `Agent ${sentinelId}`, offline: false };
}

export const isMultiAgent = (agents: readonly AgentItem[]): boolean => agentPickerVisible(agents);

/** The trace grid's columns: the Agent column exists only in multi-agent mode. */
export function traceColumnDefs(defs: readonly ColumnDef[], multiAgent: boolean): ColumnDef[] {
  return multiAgent ? [...defs] : defs.filter((d) => d.Name !== 'Agent');
}

/** The timeline graph's agent, or null where the graph shows none (one agent, or hidden by the user). */
export function graphAgent(agent: TraceAgent, multiAgent: boolean, hiddenByUser: boolean): TraceAgent | null {
  return multiAgent && !hiddenByUser ? agent : null;
}

/** The heading's tooltip on the agent: why it is marked. */
export const offlineAgentText = (name: string): string => `${name} is offline: its rounds arrive when it reconnects`;
