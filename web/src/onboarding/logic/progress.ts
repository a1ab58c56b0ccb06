// The onboarding window's stages (spec 1 "Onboarding window", section 4 "Onboarding stages 1
// to 6"): pure rules, so the window and its hooks only carry them out. Progress is stored per
// account under CloudConnect-OnboardingProgressV2 as {"stage","minimized","dismissed"}; the
// older V1 value is read only when there is no V2 one, and its stage 6 counts as dismissed.

export const OnboardingStageTitles = [
  'Welcome',
  'Deploy your first Agent',
  'Start your first trace',
  'Open a Target View',
  'Open a Timeline Graph',
  'Go forth and ping!',
] as const;

export const FirstStage = 1;
/** The stage that waits for an agent ("Deploy your first Agent"). */
export const AgentStage = 2;
/** Back works only above this stage: the sample trace is not undone. */
export const BackFloorStage = 3;
/** Complete means stage equals 6. */
export const FinalStage = 6;
/** "Open a Target View". */
export const TargetViewStage = 4;
/** "Open a Timeline Graph". */
export const TimelineGraphStage = 5;
export const FirstAgentName = 'First agent';
/** "checked 500 ms after updates" (spec 1 section 9). */
export const ProgressCheckDelayMs = 500;

export interface OnboardingProgress {
  stage: number;
  minimized: boolean;
  dismissed: boolean;
}

export const InitialProgress: OnboardingProgress = { stage: FirstStage, minimized: false, dismissed: false };

function stageOf(v: unknown): number | undefined {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n >= FirstStage ? Math.min(n, FinalStage) : undefined;
}

function objectOf(text: string | null): Record<string, unknown> | undefined {
  if (text === null) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    if (typeof v === 'number') return { stage: v };
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The progress from the stored values (null: none stored). A V2 value wins, also the empty
 * object Reset Onboarding writes (which starts again at stage 1); an unreadable value starts
 * again too. Without V2, a V1 value's stage carries over and its stage 6 counts as dismissed.
 */
export function parseProgress(v2: string | null, v1: string | null = null): OnboardingProgress {
  const current = objectOf(v2);
  if (current) {
    return {
      stage: stageOf(current.stage) ?? FirstStage,
      minimized: current.minimized === true,
      dismissed: current.dismissed === true,
    };
  }
  if (v2 === null) {
    const legacy = objectOf(v1);
    const stage = legacy && stageOf(legacy.stage);
    if (stage !== undefined) return { stage, minimized: legacy!.minimized === true, dismissed: stage === FinalStage || legacy!.dismissed === true };
  }
  return { ...InitialProgress };
}

export const serializeProgress = (p: OnboardingProgress): string => JSON.stringify({ stage: p.stage, minimized: p.minimized, dismissed: p.dismissed });

export const sameProgress = (a: OnboardingProgress, b: OnboardingProgress): boolean =>
  a.stage === b.stage && a.minimized === b.minimized && a.dismissed === b.dismissed;

export const isComplete = (p: OnboardingProgress): boolean => p.stage === FinalStage;

/** Forward is unbounded by agents or traces (stage 2 can be skipped); stage 6 is the last. */
export const forward = (p: OnboardingProgress): OnboardingProgress => ({ ...p, stage: Math.min(p.stage + 1, FinalStage) });

export const canGoBack = (p: OnboardingProgress): boolean => p.stage > BackFloorStage;
export const back = (p: OnboardingProgress): OnboardingProgress => (canGoBack(p) ? { ...p, stage: p.stage - 1 } : p);

/** First close minimizes (below stage 6); closing a minimized window or one at stage 6 dismisses. */
export const close = (p: OnboardingProgress): OnboardingProgress =>
  p.minimized || p.stage >= FinalStage ? { ...p, dismissed: true } : { ...p, minimized: true };

export const resume = (p: OnboardingProgress): OnboardingProgress => ({ ...p, minimized: false });
export const finish = (p: OnboardingProgress): OnboardingProgress => ({ ...p, dismissed: true });

/** What the check of stage 2 sees of an agent (the agent list's fields). */
export interface AgentFacts {
  ID: number;
  Configured?: boolean;
  TotalSessions?: number;
}

export type StageAction =
  | { kind: 'none' }
  | { kind: 'createFirstAgent' }
  /** Move to stage 3; `sampleTraceAgentId` set when the sample trace should start there. */
  | { kind: 'agentReady'; next: OnboardingProgress; sampleTraceAgentId?: number };

/**
 * The check of stage 2 against the agent list (remote agents only: the Local Machine, id -1,
 * is no deployed agent). No agent yet: create "First agent". A configured one: stage 3, and
 * the sample trace on it when no agent (the Local Machine included) has any sessions.
 */
export function checkAgentStage(p: OnboardingProgress, agents: readonly AgentFacts[] | null): StageAction {
  if (p.dismissed || p.stage !== AgentStage || agents === null) return { kind: 'none' };
  const remote = agents.filter((a) => a.ID > 0);
  if (remote.length === 0) return { kind: 'createFirstAgent' };
  const configured = remote.find((a) => a.Configured === true);
  if (!configured) return { kind: 'none' };
  const anySessions = agents.some((a) => (a.TotalSessions ?? 0) > 0);
  return { kind: 'agentReady', next: { ...p, stage: BackFloorStage }, sampleTraceAgentId: anySessions ? undefined : configured.ID };
}

/** The agent the stage-2 controls (Download Agent, Get Help) are about: the first not yet configured, else the first. */
export function agentOfStage(agents: readonly AgentFacts[] | null): number | undefined {
  const remote = (agents ?? []).filter((a) => a.ID > 0);
  return (remote.find((a) => a.Configured !== true) ?? remote[0])?.ID;
}

/**
 * What the user did that stages 4 and 5 wait for (issue 41 item 14; spec 1's titles "Open a
 * Target View", "Open a Timeline Graph"): a Target View open (/targets/{id}), a timeline graph
 * used (pressed, dragged, scrolled or its span chosen).
 */
export type UserStep = 'targetViewOpened' | 'timelineGraphUsed';

/**
 * The stage after a step of the user. Opening a Target View at stage 3 or 4 does what both ask
 * (a trace runs, its view is open): on to 5. Using a timeline graph at stage 5: on to 6. Any
 * other step leaves the progress as it is (the forward arrow still moves on by hand).
 */
export function afterUserStep(p: OnboardingProgress, step: UserStep): OnboardingProgress {
  if (p.dismissed) return p;
  if (step === 'targetViewOpened' && (p.stage === BackFloorStage || p.stage === TargetViewStage)) return { ...p, stage: TimelineGraphStage };
  if (step === 'timelineGraphUsed' && p.stage === TimelineGraphStage) return { ...p, stage: FinalStage };
  return p;
}

/** The sample trace among an agent's targets (to the onboarding host, by address or name). */
export function sampleTraceOf(targets: readonly { ID: number; IPAddress: string; Name: string }[], sampleHost: string): number | undefined {
  const host = sampleHost.trim().toLowerCase();
  if (!host) return undefined;
  return targets.find((t) => t.IPAddress.toLowerCase() === host || t.Name.toLowerCase() === host)?.ID;
}

/** Who gets onboarding: the onboarding flavour, a user (not LiveShare) with both claims. */
export function onboardingApplies(
  flavourOn: boolean,
  user: { IsUser: boolean; IsLiveshare: boolean; Claims: readonly string[] } | null,
): boolean {
  if (!flavourOn || !user || !user.IsUser || user.IsLiveshare) return false;
  return user.Claims.includes('SessionManagement') && user.Claims.includes('TargetManagement');
}

/** Settings > General's status line. */
export function onboardingStatusText(p: OnboardingProgress): string {
  const at = `stage ${p.stage} of ${FinalStage} (${OnboardingStageTitles[p.stage - 1]})`;
  if (p.stage === FinalStage && p.dismissed) return 'Complete';
  if (p.dismissed) return `Dismissed at ${at}`;
  return p.minimized ? `Minimized at ${at}` : `At ${at}`;
}
