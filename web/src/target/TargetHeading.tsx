// The target window's heading: the target's name, the agent and tracing state, and the
// heading tools (Download, Show alerts, Insights) as far as this server offers them.
import { useAtomValue } from 'jotai';
import { Claim, Flag } from '../../../server/contract/account';
import { LocalMachineAgentName } from '../../../server/contract/sessions';
import type { TargetDetails } from '../../../server/contract/targets';
import { currentUserAtom } from '../state/user';
import { AlertsToggle } from '../alerts/AlertsSidebar';
import { formatDurationShort } from './logic/duration';
import { targetHeadingText } from './logic/targetHeading';

export function TargetHeading({
  targetId,
  notFound,
  details,
  intervalMs,
  alertsVisible,
  onToggleAlerts,
}: {
  targetId?: string;
  notFound: boolean;
  details: TargetDetails | null;
  intervalMs: number;
  alertsVisible: boolean;
  onToggleAlerts: () => void;
}) {
  const user = useAtomValue(currentUserAtom);
  const running = !!details?.IsRunning;
  return (
    <header className="target-heading">
      <div className="target-title">
        <h1 data-testid="target-heading">{targetHeadingText({ targetId, notFound, details })}</h1>
        {details && (
          <span className="via">
            <span>via {LocalMachineAgentName}</span>
            <span className={`state-pill ${running ? 'running' : 'paused'}`} title={running ? 'Tracing' : 'This target is paused.'}>
              {running ? `Tracing every ${formatDurationShort(intervalMs)}` : 'Paused'}
            </span>
          </span>
        )}
      </div>
      <div className="heading-tools">
        {user?.Flags.includes(Flag.Pp2Import) && (
          <button type="button" className="button secondary" disabled title="Data file download is not available on this server yet.">
            Download
          </button>
        )}
        {user?.Claims.includes(Claim.AlertsManagement) && <AlertsToggle visible={alertsVisible} onToggle={onToggleAlerts} />}
        <label className="insights-toggle" title="Insights are not available on this server yet.">
          <input type="checkbox" disabled /> Insights
        </label>
      </div>
    </header>
  );
}
