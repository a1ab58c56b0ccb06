import { describe, expect, it } from 'vitest';
import {
  InitialProgress,
  OnboardingStageTitles,
  afterUserStep,
  sampleTraceOf,
  agentOfStage,
  back,
  canGoBack,
  checkAgentStage,
  close,
  finish,
  forward,
  isComplete,
  onboardingApplies,
  onboardingStatusText,
  parseProgress,
  resume,
  serializeProgress,
  type OnboardingProgress,
} from './progress';

const at = (stage: number, extra: Partial<OnboardingProgress> = {}): OnboardingProgress => ({ stage, minimized: false, dismissed: false, ...extra });

describe('the onboarding stages', () => {
  it('has the six titles of spec 1', () => {
    expect(OnboardingStageTitles).toEqual([
      'Welcome',
      'Deploy your first Agent',
      'Start your first trace',
      'Open a Target View',
      'Open a Timeline Graph',
      'Go forth and ping!',
    ]);
  });

  it('goes forward from any stage up to 6, and back only above 3', () => {
    expect(forward(at(1)).stage).toBe(2);
    expect(forward(at(2)).stage).toBe(3);
    expect(forward(at(5)).stage).toBe(6);
    expect(forward(at(6)).stage).toBe(6);
    expect([1, 2, 3, 4, 5, 6].map((s) => canGoBack(at(s)))).toEqual([false, false, false, true, true, true]);
    expect(back(at(6)).stage).toBe(5);
    expect(back(at(4)).stage).toBe(3);
    expect(back(at(3)).stage).toBe(3);
    expect(back(at(2)).stage).toBe(2);
  });

  it('minimizes on the first close, dismisses on a second one, at stage 6, or by Finish', () => {
    const once = close(at(2));
    expect(once).toEqual(at(2, { minimized: true }));
    expect(close(once)).toEqual(at(2, { minimized: true, dismissed: true }));
    expect(resume(once)).toEqual(at(2));
    expect(close(at(6))).toEqual(at(6, { dismissed: true }));
    expect(finish(at(4))).toEqual(at(4, { dismissed: true }));
    expect(isComplete(at(6))).toBe(true);
    expect(isComplete(at(5))).toBe(false);
  });
});

describe('parseProgress', () => {
  it('reads a stored V2 value and round-trips it', () => {
    const p = at(4, { minimized: true });
    expect(parseProgress(serializeProgress(p))).toEqual(p);
    expect(parseProgress('{"stage":"5","dismissed":true}')).toEqual(at(5, { dismissed: true }));
  });

  it('starts at stage 1 with nothing stored, after Reset Onboarding, or with an unreadable value', () => {
    expect(parseProgress(null)).toEqual(InitialProgress);
    expect(parseProgress('{}')).toEqual(InitialProgress);
    expect(parseProgress('not json')).toEqual(InitialProgress);
    expect(parseProgress('{"stage":-3}')).toEqual(InitialProgress);
  });

  it('takes V1 only without V2: its stage 6 counts as dismissed, a reset V2 wins over it', () => {
    expect(parseProgress(null, '{"stage":6}')).toEqual(at(6, { dismissed: true }));
    expect(parseProgress(null, '6')).toEqual(at(6, { dismissed: true }));
    expect(parseProgress(null, '{"stage":3,"minimized":true}')).toEqual(at(3, { minimized: true }));
    expect(parseProgress('{}', '{"stage":6}')).toEqual(InitialProgress);
  });
});

describe('checkAgentStage (stage 2 against the agent list)', () => {
  const local = { ID: -1, Configured: true, TotalSessions: 0 };

  it('does nothing off stage 2, when dismissed, or before the list is known', () => {
    expect(checkAgentStage(at(1), [])).toEqual({ kind: 'none' });
    expect(checkAgentStage(at(3), [])).toEqual({ kind: 'none' });
    expect(checkAgentStage(at(2, { dismissed: true }), [])).toEqual({ kind: 'none' });
    expect(checkAgentStage(at(2), null)).toEqual({ kind: 'none' });
  });

  it('asks for "First agent" when no remote agent exists (the Local Machine is none)', () => {
    expect(checkAgentStage(at(2), [local])).toEqual({ kind: 'createFirstAgent' });
    expect(checkAgentStage(at(2), [])).toEqual({ kind: 'createFirstAgent' });
  });

  it('waits while the agent is not configured', () => {
    expect(checkAgentStage(at(2), [local, { ID: 7, Configured: false, TotalSessions: 0 }])).toEqual({ kind: 'none' });
  });

  it('moves to stage 3 once an agent is configured, with the sample trace only when no agent has sessions', () => {
    const agents = [local, { ID: 7, Configured: false }, { ID: 9, Configured: true, TotalSessions: 0 }];
    expect(checkAgentStage(at(2, { minimized: true }), agents)).toEqual({ kind: 'agentReady', next: at(3, { minimized: true }), sampleTraceAgentId: 9 });
    expect(checkAgentStage(at(2), [{ ...local, TotalSessions: 2 }, agents[2]])).toEqual({ kind: 'agentReady', next: at(3) });
    expect(checkAgentStage(at(2), [{ ID: 9, Configured: true, TotalSessions: 1 }])).toEqual({ kind: 'agentReady', next: at(3) });
  });

  it('names the agent the Download Agent and Get Help controls are about', () => {
    expect(agentOfStage(null)).toBeUndefined();
    expect(agentOfStage([local])).toBeUndefined();
    expect(agentOfStage([local, { ID: 3, Configured: true }, { ID: 5, Configured: false }])).toBe(5);
    expect(agentOfStage([local, { ID: 3, Configured: true }])).toBe(3);
  });
});

describe('onboardingApplies', () => {
  const user = { IsUser: true, IsLiveshare: false, Claims: ['SessionManagement', 'TargetManagement'] };
  it('needs the flavour, a user, both claims, and no LiveShare', () => {
    expect(onboardingApplies(true, user)).toBe(true);
    expect(onboardingApplies(false, user)).toBe(false);
    expect(onboardingApplies(true, null)).toBe(false);
    expect(onboardingApplies(true, { ...user, Claims: ['SessionManagement'] })).toBe(false);
    expect(onboardingApplies(true, { ...user, Claims: ['TargetManagement'] })).toBe(false);
    expect(onboardingApplies(true, { ...user, IsLiveshare: true })).toBe(false);
    expect(onboardingApplies(true, { ...user, IsUser: false })).toBe(false);
  });
});

describe('onboardingStatusText', () => {
  it('says where the account is', () => {
    expect(onboardingStatusText(InitialProgress)).toBe('At stage 1 of 6 (Welcome)');
    expect(onboardingStatusText(at(2, { minimized: true }))).toBe('Minimized at stage 2 of 6 (Deploy your first Agent)');
    expect(onboardingStatusText(at(4, { dismissed: true }))).toBe('Dismissed at stage 4 of 6 (Open a Target View)');
    expect(onboardingStatusText(at(6, { dismissed: true }))).toBe('Complete');
  });
});

describe('stages 4 and 5 follow what the user does (issue 41 item 14)', () => {
  const at = (stage: number, dismissed = false): OnboardingProgress => ({ stage, minimized: false, dismissed });
  it('opening a Target View at stage 3 or 4 moves to "Open a Timeline Graph"', () => {
    expect(afterUserStep(at(3), 'targetViewOpened')).toEqual(at(5));
    expect(afterUserStep(at(4), 'targetViewOpened')).toEqual(at(5));
    expect(OnboardingStageTitles[5 - 1]).toBe('Open a Timeline Graph');
  });
  it('using a timeline graph at stage 5 moves to the last stage', () => {
    expect(afterUserStep(at(5), 'timelineGraphUsed')).toEqual(at(6));
  });
  it('leaves other stages, and dismissed onboarding, alone', () => {
    for (const stage of [1, 2, 5, 6]) expect(afterUserStep(at(stage), 'targetViewOpened')).toEqual(at(stage));
    for (const stage of [1, 2, 3, 4, 6]) expect(afterUserStep(at(stage), 'timelineGraphUsed')).toEqual(at(stage));
    expect(afterUserStep(at(4, true), 'targetViewOpened')).toEqual(at(4, true));
  });
});

describe('the sample trace found again after a reload (issue 41 item 14)', () => {
  const targets = [
    { ID: 7, IPAddress: '192.0.2.10', Name: 'printer' },
    { ID: 9, IPAddress: '198.51.100.4', Name: 'www.example.com' },
  ];
  it('by address or by name, any case', () => {
    expect(sampleTraceOf(targets, '192.0.2.10')).toBe(7);
    expect(sampleTraceOf(targets, 'WWW.example.com')).toBe(9);
  });
  it('none when the agent has no trace to the host', () => {
    expect(sampleTraceOf(targets, '203.0.113.1')).toBeUndefined();
    expect(sampleTraceOf(targets, '')).toBeUndefined();
  });
});
