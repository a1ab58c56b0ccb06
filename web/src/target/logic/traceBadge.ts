// The tracing state badge beside "via {agent}" in the target heading (issue 40 item 2): what
// is true now, from the session's state and its agent's live status (the agent list, read
// again on the hub's CloudConnectAccountUpdated when a link comes or goes). A running trace
// whose agent is offline is not tracing: it waits for the agent.
import { formatDurationShort } from './duration';

export type TraceBadgeTone = 'running' | 'waiting' | 'paused';

export interface TraceBadge {
  text: string;
  tone: TraceBadgeTone;
  title: string;
}

export function traceBadge(p: { running: boolean; agentOffline: boolean; agentName: string; intervalMs: number }): TraceBadge {
  if (!p.running) return { text: 'Paused', tone: 'paused', title: 'This target is paused.' };
  if (p.agentOffline) {
    return {
      text: 'Agent offline, waiting',
      tone: 'waiting',
      title: `${p.agentName} is offline: tracing goes on when it reconnects, and the rounds it kept meanwhile arrive then.`,
    };
  }
  return { text: `Tracing every ${formatDurationShort(p.intervalMs)}`, tone: 'running', title: 'Tracing' };
}
