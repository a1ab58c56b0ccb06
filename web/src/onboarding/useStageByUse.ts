// Stages 4 and 5 follow what the user does (issue 41 item 14, rules in logic/progress.ts
// afterUserStep): a Target View open (/targets/{id}) moves "Open a Target View" on; pressing,
// scrolling on or choosing the span of a timeline graph moves "Open a Timeline Graph" on.
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { afterUserStep, TimelineGraphStage, type OnboardingProgress } from './logic/progress';

const TargetViewPath = /^\/targets\/[^/]+\/?$/;

export function useStageByUse(progress: OnboardingProgress, update: (rule: (p: OnboardingProgress) => OnboardingProgress) => void): void {
  const { pathname } = useLocation();
  const onTargetView = TargetViewPath.test(pathname);
  useEffect(() => {
    if (onTargetView) update((p) => afterUserStep(p, 'targetViewOpened'));
  }, [onTargetView, progress.stage, update]);

  const waitsForGraph = progress.stage === TimelineGraphStage && !progress.dismissed;
  useEffect(() => {
    if (!waitsForGraph) return;
    const used = (e: Event) => {
      if (e.target instanceof Element && e.target.closest('section.timeline-graph')) update((p) => afterUserStep(p, 'timelineGraphUsed'));
    };
    // Capture: the graph's own handlers (drag to pan, wheel to zoom) may stop the event.
    for (const kind of ['pointerdown', 'wheel', 'change']) document.addEventListener(kind, used, { capture: true, passive: true });
    return () => {
      for (const kind of ['pointerdown', 'wheel', 'change']) document.removeEventListener(kind, used, { capture: true });
    };
  }, [waitsForGraph, update]);
}
