// The Agents Overview cards: TOTAL TRACE CAPACITY and AGENT CAPACITY (spec 1).
import { Link } from 'react-router-dom';
import { overviewTargetsText, type Overview } from './logic/agentRows';

function Bar({ percent, label }: { percent: number; label: string }) {
  return (
    <div className="capacity-bar" role="progressbar" aria-label={label} aria-valuenow={percent} aria-valuemin={0} aria-valuemax={100}>
      <div style={{ width: `${percent}%` }} />
    </div>
  );
}

export function AgentsOverview({ o, cloud }: { o: Overview; cloud: boolean }) {
  return (
    <section className="agents-overview" aria-label="Agents overview">
      <div className="capacity-card">
        <h3>TOTAL TRACE CAPACITY</h3>
        <p>{overviewTargetsText(o)}</p>
        <Bar percent={o.tracePercent} label="Trace capacity" />
        {cloud && <Link to="/subscription">Change Capacity</Link>}
      </div>
      <div className="capacity-card">
        <h3>AGENT CAPACITY</h3>
        <p>
          {o.online} online, {o.offline} offline, {o.pending} pending
        </p>
        <Bar percent={o.onlinePercent} label="Agents online" />
      </div>
      {cloud && (
        <Link className="button" to="/subscription">
          Manage Subscription
        </Link>
      )}
    </section>
  );
}
