// The stage check, 500 ms after every update of the progress or of the agent list (spec 1
// section 9): at stage 2 it creates "First agent" when the account has no agent, and once an
// agent is configured moves to stage 3 and starts the sample trace to the appliance's
// onboarding host on it when no agent has sessions. Each call is made at most once per
// console (a ref guards against the next check running while the call is under way). From
// stage 3 on, the sample trace's id (for stage 3's link) is found again among the configured
// agents' targets when this console did not start it (a reload, another browser).
import { useEffect, useRef, useState } from 'react';
import { DefaultTraceIntervalMs } from '../../../server/contract/targets';
import { agentTargets, createAgent } from '../agents/api';
import type { AgentRowSource } from '../agents/logic/agentRows';
import { reportError } from '../state/reportError';
import { showInfo } from '../state/toasts';
import { newTarget } from '../target/api';
import { BackFloorStage, checkAgentStage, FirstAgentName, ProgressCheckDelayMs, sampleTraceOf, type OnboardingProgress } from './logic/progress';

export function useStageCheck(
  progress: OnboardingProgress | null,
  update: (rule: (p: OnboardingProgress) => OnboardingProgress) => void,
  agents: AgentRowSource[] | null,
  reloadAgents: () => Promise<void>,
  sampleHost: string,
) {
  const creating = useRef(false);
  const tracing = useRef(false);
  /** The sample trace's target id, for the stage 3 link. */
  const [sampleTargetId, setSampleTargetId] = useState<number>();

  useEffect(() => {
    if (!progress) return;
    const timer = setTimeout(() => {
      const action = checkAgentStage(progress, agents);
      if (action.kind === 'createFirstAgent' && !creating.current) {
        creating.current = true;
        createAgent(FirstAgentName).then(
          (a) => {
            if (a) showInfo(`Successfully created agent: ${a.Name}`);
            return reloadAgents();
          },
          (e: unknown) => {
            creating.current = false;
            reportError(e, { prefix: 'Error creating agent: ' });
          },
        );
      } else if (action.kind === 'agentReady' && !tracing.current) {
        update(() => action.next);
        if (action.sampleTraceAgentId === undefined || !sampleHost) return;
        tracing.current = true;
        newTarget({ target: sampleHost, traceIntervalMs: DefaultTraceIntervalMs, agentId: action.sampleTraceAgentId }).then(
          (r) => {
            if (r) setSampleTargetId(Number(r.ID));
            return reloadAgents();
          },
          (e: unknown) => reportError(e),
        );
      }
    }, ProgressCheckDelayMs);
    return () => clearTimeout(timer);
  }, [progress, agents, update, reloadAgents, sampleHost]);

  // After a reload the link's trace is looked up (once per agent list) rather than lost.
  const stage = progress?.stage ?? 0;
  useEffect(() => {
    if (sampleTargetId !== undefined || stage < BackFloorStage || !agents || !sampleHost) return;
    let live = true;
    const configured = agents.filter((a) => a.ID > 0 && a.Configured === true);
    void (async () => {
      for (const a of configured) {
        const found = sampleTraceOf((await agentTargets(a.ID).catch(() => null)) ?? [], sampleHost);
        if (found !== undefined) {
          if (live) setSampleTargetId(found);
          return;
        }
      }
    })();
    return () => {
      live = false;
    };
  }, [sampleTargetId, stage, agents, sampleHost]);

  return { sampleTargetId };
}
