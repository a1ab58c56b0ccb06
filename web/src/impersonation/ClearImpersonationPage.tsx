// /clearimpersonation (spec 1 section 2, gate IsImpersonating): ends the impersonation and
// returns to the original user.
import { useEffect, useRef } from 'react';
import { useDocumentTitle } from '../shell/documentTitle';
import { reportError } from '../state/reportError';
import { clearImpersonation } from './api';
import { restartConsoleAt } from './restartConsole';

export function ClearImpersonationPage() {
  useDocumentTitle('Clear Impersonation');
  // Once per visit (effects run twice in development's strict mode).
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    clearImpersonation()
      .then(() => restartConsoleAt('/'))
      .catch((e: unknown) => reportError(e, { prefix: 'Could not clear the impersonation: ' }));
  }, []);
  return (
    <section className="page">
      <p className="hint" role="status">Clearing impersonation...</p>
    </section>
  );
}
