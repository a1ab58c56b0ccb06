// Staff may impersonate a user of any account (server/impersonation/, issue 23): the staff
// pages offer it beside a user. The console then starts over as that user.
import { useState } from 'react';
import { startImpersonation } from '../impersonation/api';
import { restartConsoleAt } from '../impersonation/restartConsole';
import { reportError } from '../state/reportError';

export function ImpersonateButton({ userId, label = 'Impersonate' }: { userId: number | null; label?: string }) {
  const [busy, setBusy] = useState(false);
  if (userId === null) return null;
  const start = async () => {
    setBusy(true);
    try {
      await startImpersonation(userId);
      restartConsoleAt('/');
    } catch (e) {
      reportError(e, { prefix: 'Could not impersonate the user: ' });
      setBusy(false);
    }
  };
  return (
    <button type="button" className="button secondary" disabled={busy} onClick={() => void start()}>
      {label}
    </button>
  );
}
