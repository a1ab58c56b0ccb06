// The target window's heading: the target's name, the agent and tracing state, and the
// heading tools (Download, Show alerts, the Insights toggle) as far as this server offers them.
import { useAtomValue } from 'jotai';
import { Claim, Flag } from '../../../server/contract/account';
import type { TargetDetails } from '../../../server/contract/targets';
import { appConfigAtom, currentUserAtom } from '../state/user';
import { Link } from 'react-router-dom';
import { liveShareViewerPath } from '../state/liveShareCookie';
import { AlertsToggle } from '../alerts/AlertsSidebar';
import { traceBadge } from './logic/traceBadge';
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
  insightsOpen,
  onInsights,
  alertsVisible,
  onToggleAlerts,
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
  insightsOpen: boolean;
  onInsights: (open: boolean) => void;
  alertsVisible: boolean;
  onToggleAlerts: () => void;
}) {
  const user = useAtomValue(currentUserAtom);
  // Signed-in users with a target, on the cloud edition or with Insights switched on (spec 3 section 2.2).
  const insights = useAtomValue(appConfigAtom).InsightsEnabled && !!user?.IsUser && !!targetId && !notFound;
  // What is true now: tracing, waiting for an offline agent, or paused (logic/traceBadge).
  const badge = traceBadge({ running: !!details?.IsRunning, agentOffline: !!agent?.offline, agentName: agent?.name ?? '', intervalMs });
  return (
    <header className="target-heading">
      <div className="target-title">
        {user?.IsLiveshare && (
          <Link to={liveShareViewerPath()} className="back-to-summary">
            Back to summary
          </Link>
        )}
        <h1 data-testid="target-heading" title={targetHeadingText({ targetId, notFound, details })}>{targetHeadingText({ targetId, notFound, details })}</h1>
        {details && (
          <span className="via">
            {agent && (
              <span data-testid="target-agent">
                via <AgentName agent={agent} />
              </span>
            )}
            <span className={`state-pill ${badge.tone}`} data-testid="trace-badge" title={badge.title}>
              {badge.text}
            </span>
            {/* The packet type the configuration traces with now (issue 41 item 5: a switch to TCP shows). */}
            {details.PacketType && (
              <span className="state-pill" data-testid="packet-type" title="The packet type this target's configuration traces with">
                {details.PacketType}
              </span>
            )}
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
        {user?.Claims.includes(Claim.AlertsManagement) && <AlertsToggle visible={alertsVisible} onToggle={onToggleAlerts} />}
        {insights && (
          <button type="button" className={`button ${insightsOpen ? 'primary' : 'secondary'}`} aria-pressed={insightsOpen} onClick={() => onInsights(!insightsOpen)}>
            Insights
          </button>
        )}
      </div>
    </header>
  );
}
