// The subscription page's figures: the same as the Agents Overview cards (spec 1), from the
// subscription's counts, plus the entitled agents.
import type { Subscription } from '../../../../server/contract/accounts';

export interface SubscriptionFigures {
  tracesText: string;
  tracePercent: number;
  agentsText: string;
  agentPercent: number;
  entitledAgentsText: string;
}

const percent = (part: number, whole: number) => (whole > 0 ? Math.min(100, Math.round((part / whole) * 100)) : 0);

export function figuresOf(s: Subscription): SubscriptionFigures {
  const total = s.OnlineAgents + s.OfflineAgents + s.PendingAgents;
  return {
    tracesText: `${s.ActiveTraces} of ${s.EntitledTraces} Active Targets`,
    tracePercent: percent(s.ActiveTraces, s.EntitledTraces),
    agentsText: `${s.OnlineAgents} online, ${s.OfflineAgents} offline, ${s.PendingAgents} pending`,
    agentPercent: percent(s.OnlineAgents, total),
    entitledAgentsText: s.EntitledAgents === null ? `${total} agents (no limit)` : `${total} of ${s.EntitledAgents} agents`,
  };
}
