// /staff/pingserver-management: the appliance's probing engines (the built-in Local Machine
// engine and every account's agents) with health (connected, last seen, version) and load
// (sessions tracing now, hop samples stored over the last minute). Refreshes every 15 s.
import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../../shell/documentTitle';
import { listPingServers } from '../api';
import { agoText, healthText } from '../logic/text';
import { useStaffData } from '../useStaffData';
import '../staff.css';

const RefreshMs = 15_000;

function usePingServers() {
  const result = useStaffData(listPingServers, [], 'the ping servers');
  const { reload } = result;
  useEffect(() => {
    const t = setInterval(reload, RefreshMs);
    return () => clearInterval(t);
  }, [reload]);
  return result;
}

export function PingServerManagementPage() {
  useDocumentTitle('Ping Server Management');
  const { data: servers = [], loading, reload } = usePingServers();
  const now = Date.now();
  const connected = servers.filter((s) => s.Connected).length;
  const samples = servers.reduce((n, s) => n + s.SamplesPerMinute, 0);
  const sessions = servers.reduce((n, s) => n + s.ActiveSessions, 0);
  return (
    <section className="page staff-page ping-servers">
      <header className="page-header">
        <h1>Ping Server Management</h1>
      </header>
      <div className="staff-tools">
        <span>{`${servers.length} engines, ${connected} connected, ${sessions} sessions tracing, ${samples} samples/min`}</span>
        <button type="button" className="button secondary" onClick={reload}>Refresh</button>
        {loading && <span className="hint">Loading...</span>}
      </div>
      <table className="staff-grid" role="grid" aria-label="Ping servers">
        <thead>
          <tr>
            <th>Engine</th>
            <th>Account</th>
            <th>Health</th>
            <th>Last seen</th>
            <th>Version</th>
            <th className="number">Sessions</th>
            <th className="number">Samples/min</th>
          </tr>
        </thead>
        <tbody>
          {servers.map((s) => {
            const health = healthText(s, now);
            return (
              <tr key={s.Id}>
                <td>
                  {s.Name}
                  <div className="hint">{s.Id === -1 ? s.Engine : `${s.UniqueId} (id ${s.Id})`}</div>
                </td>
                <td>{s.AccountId ? <Link to={`/staff/sessionaudit/?accountId=${s.AccountId}`}>{s.AccountName}</Link> : s.AccountName}</td>
                <td>
                  <span className={`staff-badge ${health === 'Online' ? 'ok' : health === 'Stale' ? 'warn' : 'bad'}`}>{health}</span>
                </td>
                <td>{s.Id === -1 ? 'now' : agoText(s.LastSeen, now)}</td>
                <td>{s.Version || 'unknown'}</td>
                <td className="number">{s.ActiveSessions}</td>
                <td className="number">{s.SamplesPerMinute}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
