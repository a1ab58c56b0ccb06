// Settings > General, "Onboarding" (cloud mode only; spec 2 section 2, spec 1 section 4): the
// account's onboarding status and Reset Onboarding, which has the server write an empty object
// to the stored progress (GET /api/kvp) and reloads the site root, where the onboarding window
// starts again at stage 1 (in the onboarding flavour).
import { useEffect, useState } from 'react';
import { errorMessage } from '../../api/errors';
import { readProgress, resetOnboarding } from '../../onboarding/api';
import { onboardingStatusText, parseProgress } from '../../onboarding/logic/progress';
import { reportError } from '../../state/reportError';

export function OnboardingPanel() {
  const [status, setStatus] = useState<string>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    readProgress().then(
      ({ v2, v1 }) => live && setStatus(onboardingStatusText(parseProgress(v2, v1))),
      (e: unknown) => live && setStatus(`Error: ${errorMessage(e)}`),
    );
    return () => {
      live = false;
    };
  }, []);

  const reset = async () => {
    setBusy(true);
    try {
      await resetOnboarding();
      window.location.assign('/');
    } catch (e) {
      reportError(e);
      setBusy(false);
    }
  };

  return (
    <section className="settings-onboarding" aria-label="Onboarding">
      <h3>Onboarding</h3>
      <p>
        Status: <span data-testid="onboarding-status">{status ?? 'Loading…'}</span>
      </p>
      <button type="button" className="button secondary" onClick={() => void reset()} disabled={busy}>
        Reset Onboarding
      </button>
    </section>
  );
}
