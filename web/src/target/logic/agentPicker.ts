// The control panel's Agent picker (spec 2 section 2): shown only when agents exist and the
// deployment is multi-agent (more than one agent); filterable; offline agents in red; the
// first agent is chosen when none is; disabled while rows are selected. Sorted online first,
// then by name (spec 2 section 9).
import type { AgentItem as ContractAgentItem } from '../../../../server/contract/agents';
import { LocalMachineAgentId } from '../../../../server/contract/sessions';

/** What the picker reads of an agent as the hub's GetAgents answers it. */
export type AgentItem = Pick<ContractAgentItem, 'ID' | 'Name' | 'IsOnline'>;

export const AgentPickerMinWidthPx = 140;
/** The text colour of an offline agent. */
export const OfflineAgentColour = '#d32f2f';

export const agentPickerVisible = (agents: readonly AgentItem[]): boolean => agents.length > 1;

export function sortAgents(agents: readonly AgentItem[]): AgentItem[] {
  return [...agents].sort(
    (a, b) => Number(b.IsOnline) - Number(a.IsOnline) || a.Name.localeCompare(b.Name, undefined, { sensitivity: 'base' }) || a.ID - b.ID,
  );
}

/** The chosen agent: the one chosen while it still exists, else the first in picker order. */
export function chosenAgent(agents: readonly AgentItem[], chosenId: number | null): AgentItem | null {
  return agents.find((a) => a.ID === chosenId) ?? sortAgents(agents)[0] ?? null;
}

/**
 * The agent a new trace starts on when the user chose none (issue 40 item 8): self-hosted, the
 * Local Machine (the appliance itself, always there); hosted, the account's first online
 * agent of its own in picker order (the Local Machine is the provider's server there, listed
 * only when staff granted it), else the Local Machine where offered, else the first agent.
 * Never an agent that was only created and never connected while a working one exists.
 */
export function defaultNewTraceAgent(agents: readonly AgentItem[], hosted: boolean): AgentItem | null {
  const local = agents.find((a) => a.ID === LocalMachineAgentId);
  const sorted = sortAgents(agents);
  if (!hosted) return local ?? sorted[0] ?? null;
  return sorted.find((a) => a.IsOnline && a.ID !== LocalMachineAgentId) ?? local ?? sorted[0] ?? null;
}

/**
 * What the Agent picker shows (issue 40 item 2): the agent the user chose while it exists;
 * else, with a target open, that trace's own agent, online or not, and even when the list
 * does not hold it (never silently another: the heading says "via" that agent); else the
 * default for a new trace.
 */
export function pickerAgent(agents: readonly AgentItem[], chosenId: number | null, traceAgent: AgentItem | null, hosted: boolean): AgentItem | null {
  const chosen = agents.find((a) => a.ID === chosenId);
  if (chosen) return chosen;
  if (traceAgent) return agents.find((a) => a.ID === traceAgent.ID) ?? traceAgent;
  return defaultNewTraceAgent(agents, hosted);
}

/**
 * Sidekick's agent: the one chosen while it still exists, else the Local Machine where it is
 * offered (Sidekick looks at that machine's network), else the first in picker order (a
 * hosted customer's own agent: the Local Machine is the provider's there, issue 39 item 15).
 */
export function sidekickAgent(agents: readonly AgentItem[], chosenId: number | null): AgentItem | null {
  return agents.find((a) => a.ID === chosenId) ?? agents.find((a) => a.ID === LocalMachineAgentId) ?? sortAgents(agents)[0] ?? null;
}

/** Agents whose name contains the filter text (any case), in picker order. */
export function filterAgents(agents: readonly AgentItem[], filter: string): AgentItem[] {
  const f = filter.trim().toLowerCase();
  return sortAgents(agents).filter((a) => a.Name.toLowerCase().includes(f));
}

export const agentPickerDisabled = (selectionCount: number): boolean => selectionCount > 0;

/** How an agent's name is drawn in the picker and its list. */
export const agentTextStyle = (a: AgentItem): { color?: string } => (a.IsOnline ? {} : { color: OfflineAgentColour });
