// The target window's heading: the target's name, the agent and tracing state, and the
// heading tools (Download, Show alerts, Insights) as far as this server offers them.
import { useAtomValue } from 'jotai';
import { Claim, Flag } from '../../../server/contract/account';
import type { TargetDetails } from '../../../server/contract/targets';
import { currentUserAtom } from '../state/user';
import { Link } from 'react-router-dom';
import { liveShareViewerPath } from '../state/liveShareCookie';
import { formatDurationShort } from './logic/duration';
import { targetHeadingText } from './logic/targetHeading';
import type { TimeRange } from './logic/graphTimeState';
import { DownloadButton } from './DownloadButton';
import type { TraceAgent } from './logic/traceAgent';
import { AgentName } from './AgentName';

export function TargetHeading({
  targetId,
  notFound,
  details,
  intervalMs,
  view,
  focus,
  agent,
}: {
  targetId?: string;
  notFound: boolean;
  details: TargetDetails | null;
  intervalMs: number;
  /** The graphs' viewport and the statistics focus: the download menu's ranges. */
  view: TimeRange;
  focus: TimeRange;
  /** The session's agent (logic/traceAgent). */
  agent: TraceAgent | null;
}) {
  const user = useAtomValue(currentUserAtom);
  const running = !!details?.IsRunning;
  return (
    <header className="target-heading">
      <div className="target-title">
        {user?.IsLiveshare && (
          <Link to={liveShareViewerPath()} className="back-to-summary">
            Back to summary
          </Link>
        )}
        <h1 data-testid="target-heading">{targetHeadingText({ targetId, notFound, details })}</h1>
        {details && (
          <span className="via">
            {agent && (
              <span data-testid="target-agent">
                via <AgentName agent={agent} />
              </span>
            )}
            <span className={`state-pill ${running ? 'running' : 'paused'}`} title={running ? 'Tracing' : 'This target is paused.'}>
              {running ? `Tracing every ${formatDurationShort(intervalMs)}` : 'Paused'}
            </span>
          </span>
        )}
      </div>
      <div className="heading-tools">
        {user?.Flags.includes(Flag.Pp2Import) && targetId && details && (
          <DownloadButton
            targetId={targetId}
            target={details.TargetDNSName || details.TargetIPAddress}
            view={view}
            focus={focus}
            firstSampleMs={details.FirstSample ? Date.parse(details.FirstSample) : null}
          />
        )}
        {user?.Claims.includes(Claim.AlertsManagement) && (
          <button type="button" className="button secondary" disabled title="Alerts are not available on this server yet.">
            Show alerts
          </button>
        )}
        <label className="insights-toggle" title="Insights are not available on this server yet.">
          <input type="checkbox" disabled /> Insights
        </label>
      </div>
    </header>
  );
}
