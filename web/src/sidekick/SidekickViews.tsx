// The Sidekick page's views that hold no state of their own: purchase (Sidekick unavailable)
// and welcome (Stage Uninitialized, with the list of what Get Started traces), spec 3 section 2.5.
import { useState } from 'react';
import { LocalMachineAgentId } from '../../../server/contract/sessions';
import { AgentPicker } from '../target/AgentPicker';
import { useAgentList } from '../target/useAgentList';
import { sidekickAgent } from '../target/logic/agentPicker';
import { PlannedSources } from './PlannedSources';
export const BuySidekickUrl = 'https://github.com/hopwatch/hopwatch#licence';

export function PurchaseView() {
  return (
    <section className="sidekick-purchase" aria-label="Sidekick purchase">
      <h2>Sidekick</h2>
      <p>
        Sidekick finds the five network paths that matter to this machine on its own, watches them and tells you where the trouble is. It needs the
        Sidekick licence or a Professional licence that is not a trial.
      </p>
      <a className="button" href={BuySidekickUrl} target="_blank" rel="noreferrer noopener">
        Buy Sidekick
      </a>
    </section>
  );
}

export function WelcomeView({ onStart, starting }: { onStart: (agentId?: number) => void; starting: boolean }) {
  // The agent the five traces run on: the Local Machine where it is offered, else the first
  // agent, unless the user picks another (offered only when there is another, like the
  // target window's picker).
  const agents = useAgentList();
  const [agentId, setAgentId] = useState<number | null>(null);
  const chosen = sidekickAgent(agents, agentId);
  const pickedAgent = chosen && chosen.ID !== LocalMachineAgentId ? chosen.ID : undefined;
  return (
    <section className="sidekick-welcome" aria-label="Sidekick welcome">
      <h2>Welcome to Sidekick</h2>
      <p>
        Not sure what to trace? Sidekick looks at this machine's network: its default gateway, its DNS resolver and the edge of your internet provider,
        plus two well-known places on the internet. It traces all five and shows at a glance which part of the path is in trouble.
      </p>
      {agents.length > 1 && <AgentPicker agents={agents} chosen={chosen} onChoose={setAgentId} disabled={starting} title="The agent Sidekick's traces run on" />}
      <PlannedSources agentId={pickedAgent} />
      <button type="button" className="button" onClick={() => onStart(pickedAgent)} disabled={starting}>
        {starting ? 'Starting...' : 'Get Started'}
      </button>
    </section>
  );
}
