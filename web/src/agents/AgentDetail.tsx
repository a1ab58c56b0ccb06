// The AGENT DETAIL panel (spec 1): name, Active Targets, Reconnect (once it connected:
// logic/agentActions) / Rename / Delete / Uninstall (online only), the TARGETS list with Stop, and the DEPLOY footer (Installer,
// Auto Setup, New Setup Link, and the install commands once the link is loaded: AgentInstall).
// Reports what the user chose; the page runs the calls.
import { useNavigate } from 'react-router-dom';
import type { AgentDownloadLink, AgentTarget } from '../../../server/contract/agents';
import { AgentInstall } from './AgentInstall';
import { offersReconnect } from './logic/agentActions';
import type { AgentRowSource } from './logic/agentRows';

export interface AgentDetailActions {
  onClose(): void;
  onReconnect(): void;
  onRename(): void;
  onDelete(uninstall: boolean): void;
  onStop(targetId: number): void;
  onInstaller(): void;
  onAutoSetup(): void;
  /** A new setup key: the link copied before stops working. */
  onNewSetupLink(): void;
}

export function AgentDetail({
  agent,
  targets,
  averages,
  actions,
  setupLink,
}: {
  agent: AgentRowSource;
  /** The agent's links once loaded (PENDING agents at once): the install commands show. */
  setupLink: AgentDownloadLink | null;
  targets: AgentTarget[];
  /** Avg. of each target by id (its final hop over the last 10 minutes). */
  averages: Map<number, string>;
  actions: AgentDetailActions;
}) {
  const navigate = useNavigate();
  const remote = agent.ID > 0;
  return (
    <section className="agent-detail" aria-label="Agent detail">
      <header>
        <h3>AGENT DETAIL</h3>
        <button type="button" className="icon-button" aria-label="Close agent detail" onClick={actions.onClose}>
          ×
        </button>
      </header>
      <h2 className="agent-name">{agent.Name}</h2>
      <p className="agent-active">
        Active Targets: {agent.OpenSessions ?? 0} ({targets.length} local to this agent)
      </p>
      {remote && (
        <div className="agent-actions">
          {offersReconnect(agent) && (
            <button type="button" className="button secondary" onClick={actions.onReconnect}>Reconnect</button>
          )}
          <button type="button" className="button secondary" onClick={actions.onRename}>Rename</button>
          <button type="button" className="button secondary" onClick={() => actions.onDelete(false)}>Delete</button>
          {agent.IsOnline && (
            <button type="button" className="button danger" onClick={() => actions.onDelete(true)}>Uninstall</button>
          )}
        </div>
      )}
      <h3>TARGETS</h3>
      <table className="agent-targets">
        <thead>
          <tr>
            <th>IP Address</th>
            <th>Name</th>
            <th>Avg.</th>
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {targets.map((t) => (
            <tr key={t.ID} onClick={() => navigate(`/targets/${t.ID}`)}>
              <td>{t.IPAddress}</td>
              <td>{t.Name}</td>
              <td className="agent-target-avg" title="Average latency of the final hop over the last 10 minutes">{averages.get(t.ID) ?? ''}</td>
              <td>
                {!t.Paused && (
                  <button type="button" className="button secondary small" onClick={(e) => (e.stopPropagation(), actions.onStop(t.ID))}>Stop</button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {remote && (
        <footer className="agent-deploy">
          <h3>DEPLOY</h3>
          <button type="button" className="button secondary" onClick={actions.onInstaller}>Installer</button>
          <button type="button" className="button" onClick={actions.onAutoSetup}>Auto Setup</button>
          <button type="button" className="button secondary" onClick={actions.onNewSetupLink}>New Setup Link</button>
          <p className="hint">Agents run on Linux x64 (raw sockets); Windows and macOS agents are not offered.</p>
          {setupLink && <AgentInstall link={setupLink} />}
        </footer>
      )}
    </section>
  );
}
