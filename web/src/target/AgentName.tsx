// An agent's name where a target shows it ("via {agent}" in the heading, the timeline graph's
// header): an offline agent in red with a marker that says so (spec 2).
import { offlineAgentText, type TraceAgent } from './logic/traceAgent';

export function AgentName({ agent }: { agent: TraceAgent }) {
  if (!agent.offline) return <span className="agent-name">{agent.name}</span>;
  return (
    <span className="agent-name offline" title={offlineAgentText(agent.name)}>
      <span className="offline-marker" role="img" aria-label="offline">
        ●
      </span>{' '}
      {agent.name}
    </span>
  );
}
