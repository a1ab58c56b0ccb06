// The onboarding window (spec 1 "Onboarding window", section 4; the onboarding flavour,
// HOPWATCH_ONBOARDING=1): a draggable, resizable, minimizable window over every screen with six
// stages, each with its title, a short text and the controls Download Agent, Get Help, back,
// forward and Finish. Minimized it is a "Resume onboarding" button. Rules in
// logic/progress.ts; progress, stage check and position in the hooks beside.
import { useAtomValue, useSetAtom } from 'jotai';
import { Link } from 'react-router-dom';
import { downloadLink } from '../agents/api';
import { useAgents } from '../agents/useAgents';
import { Icon } from '../components/Icon';
import { getHelpAtom } from '../state/dialogs';
import { reportError } from '../state/reportError';
import { appConfigAtom, currentUserAtom } from '../state/user';
import {
  AgentStage,
  FinalStage,
  OnboardingStageTitles,
  agentOfStage,
  back,
  canGoBack,
  close,
  finish,
  forward,
  onboardingApplies,
  resume,
  type OnboardingProgress,
} from './logic/progress';
import { useOnboardingProgress } from './useOnboardingProgress';
import { useStageByUse } from './useStageByUse';
import { useStageCheck } from './useStageCheck';
import { useWindowPosition } from './useWindowPosition';
import './onboarding.css';

export function OnboardingWindow() {
  const config = useAtomValue(appConfigAtom);
  const user = useAtomValue(currentUserAtom);
  const applies = onboardingApplies(config.Onboarding, user);
  // Mounted only while onboarding applies, so nothing is read or polled for anyone else.
  return applies ? <OnboardingFlow sampleHost={config.OnboardingTarget} /> : null;
}

function OnboardingFlow({ sampleHost }: { sampleHost: string }) {
  const { progress, update } = useOnboardingProgress(true);
  const active = progress !== null && !progress.dismissed;
  return active ? <ActiveOnboarding sampleHost={sampleHost} progress={progress} update={update} /> : null;
}

interface ActiveProps {
  sampleHost: string;
  progress: OnboardingProgress;
  update: (rule: (p: OnboardingProgress) => OnboardingProgress) => void;
}

function ActiveOnboarding({ sampleHost, progress, update }: ActiveProps) {
  const { agents, reload } = useAgents();
  const { sampleTargetId } = useStageCheck(progress, update, agents, reload, sampleHost);
  useStageByUse(progress, update);
  const { position, startDrag, box } = useWindowPosition(!progress.minimized);
  const openGetHelp = useSetAtom(getHelpAtom);
  const stageAgent = agentOfStage(agents);

  if (progress.minimized) {
    // Closing the minimized window dismisses onboarding for good.
    return (
      <div className="onboarding-resume" role="group" aria-label="Onboarding">
        <button type="button" className="button primary" onClick={() => update(resume)}>
          Resume onboarding
        </button>
        <button type="button" className="icon-button" aria-label="Close onboarding" title="Close for good" onClick={() => update(close)}>
          <Icon name="close" size={14} />
        </button>
      </div>
    );
  }

  const stage = progress.stage;
  const title = OnboardingStageTitles[stage - 1];
  const download = () => {
    if (stageAgent === undefined) return;
    downloadLink(stageAgent).then(
      (l) => l && window.open(l.DownloadUrl, '_blank', 'noopener'),
      (e: unknown) => reportError(e, { prefix: 'Error getting agent download: ' }),
    );
  };

  return (
    <div
      ref={box}
      className="onboarding-window"
      role="dialog"
      aria-labelledby="onboarding-title"
      data-stage={stage}
      style={{ left: position.left, top: position.top, width: position.width, height: position.height }}
    >
      <header className="onboarding-head" onPointerDown={startDrag}>
        <span className="onboarding-step">
          {stage} of {FinalStage}
        </span>
        <h2 id="onboarding-title">{title}</h2>
        <button type="button" className="icon-button" aria-label="Close onboarding" title={stage >= FinalStage ? 'Close' : 'Minimize'} onClick={() => update(close)}>
          <Icon name="close" size={16} />
        </button>
      </header>
      <div className="onboarding-body">
        <StageText stage={stage} sampleHost={sampleHost} sampleTargetId={sampleTargetId} hasAgent={stageAgent !== undefined} />
      </div>
      <footer className="onboarding-controls">
        {stage === AgentStage && (
          <button type="button" className="button secondary" onClick={download} disabled={stageAgent === undefined}>
            Download Agent
          </button>
        )}
        <button type="button" className="button secondary" onClick={() => openGetHelp({ agentId: stageAgent })}>
          Get Help
        </button>
        <span className="onboarding-spacer" />
        <button type="button" className="icon-button onboarding-back" aria-label="Back" disabled={!canGoBack(progress)} onClick={() => update(back)}>
          <Icon name="chevron" size={16} />
        </button>
        {stage < FinalStage ? (
          <button type="button" className="icon-button onboarding-forward" aria-label="Forward" onClick={() => update(forward)}>
            <Icon name="chevron" size={16} />
          </button>
        ) : (
          <button type="button" className="button primary" onClick={() => update(finish)}>
            Finish
          </button>
        )}
      </footer>
    </div>
  );
}

/** What each stage says; the spec fixes the titles, these texts are ours. */
function StageText({ stage, sampleHost, sampleTargetId, hasAgent }: { stage: number; sampleHost: string; sampleTargetId?: number; hasAgent: boolean }) {
  switch (stage) {
    case 1:
      return <p>Hopwatch traces the path to your targets hop by hop, from agents you place in your network. This short tour sets up your first agent and trace.</p>;
    case 2:
      return (
        <>
          <p>
            {hasAgent ? 'An agent named “First agent” is ready for you. ' : 'Creating your first agent… '}
            Download the agent, install it on a Linux machine in the network you want to watch, and connect it with its Auto Setup link (Agents page).
          </p>
          <p className="hint">This window moves on by itself once the agent connects.</p>
        </>
      );
    case 3:
      return (
        <p>
          Your agent is connected. {sampleTargetId !== undefined ? <>A trace to <strong>{sampleHost}</strong> has started on it. </> : null}
          Start a trace to any host from the target entry at the top of the Targets page.
          {sampleTargetId !== undefined && (
            <>
              {' '}
              <Link to={`/targets/${sampleTargetId}`}>Open the trace to {sampleHost}</Link>
            </>
          )}
        </p>
      );
    case 4:
      return (
        <>
          <p>Open a target to see its Target View: every hop on the path with its latency and packet loss, updated live.</p>
          <p className="hint">This window moves on by itself once a Target View is open.</p>
        </>
      );
    case 5:
      return (
        <>
          <p>Below the hops, the Timeline Graph shows latency and loss over time. Click a hop to see its own timeline, or drag on a graph to move through time.</p>
          <p className="hint">This window moves on by itself once you use a timeline graph.</p>
        </>
      );
    default:
      return <p>You're set. Add the targets that matter to you, group them in summaries, and share them with LiveShare. Press Finish to close this guide.</p>;
  }
}
