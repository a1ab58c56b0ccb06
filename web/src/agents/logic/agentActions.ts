// Which actions the AGENT DETAIL panel offers an agent (spec 1 "Agents page"). Reconnect drops
// the agent's link so that the agent program connects again: an agent that never connected
// (PENDING: created, its program not installed yet) has no link to drop, and offering it there
// only led to a red toast and banner (issue 40 item 8). The server refuses it too, with the same
// reason (server/agents/service.ts, forceReconnect).
import type { AgentRowSource } from './agentRows';

/** Reconnect: a remote agent that has connected before (ONLINE or OFFLINE, not PENDING). */
export function offersReconnect(a: Pick<AgentRowSource, 'ID' | 'Configured'>): boolean {
  return a.ID > 0 && a.Configured === true;
}
