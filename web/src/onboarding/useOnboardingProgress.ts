// The account's onboarding progress: read once when onboarding applies, saved on every change
// of stage, minimized or dismissed (spec 1 section 4). A failed save is reported; the window
// keeps the progress it shows.
import { useCallback, useEffect, useRef, useState } from 'react';
import { reportError } from '../state/reportError';
import { readProgress, saveProgress } from './api';
import { parseProgress, sameProgress, serializeProgress, type OnboardingProgress } from './logic/progress';

export function useOnboardingProgress(applies: boolean) {
  const [progress, setProgress] = useState<OnboardingProgress | null>(null);
  const current = useRef<OnboardingProgress | null>(null);

  useEffect(() => {
    if (!applies) return;
    let live = true;
    readProgress().then(
      ({ v2, v1 }) => {
        if (!live) return;
        current.current = parseProgress(v2, v1);
        setProgress(current.current);
      },
      (e: unknown) => live && reportError(e, { prefix: 'Could not read the onboarding progress: ' }),
    );
    return () => {
      live = false;
    };
  }, [applies]);

  /** Applies a stage rule to the latest progress and saves the result when it changed. */
  const update = useCallback((rule: (p: OnboardingProgress) => OnboardingProgress) => {
    const before = current.current;
    if (!before) return;
    const next = rule(before);
    if (sameProgress(before, next)) return;
    current.current = next;
    setProgress(next);
    saveProgress(serializeProgress(next)).catch((e: unknown) => reportError(e, { prefix: 'Could not save the onboarding progress: ' }));
  }, []);

  return { progress, update };
}
