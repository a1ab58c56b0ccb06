// Full-page fallback for an unrecoverable rendering error (spec 1 section 2). It logs the
// error locally and offers a support ticket that carries that log.
import { Component, useEffect, useState, type ErrorInfo, type ReactNode } from 'react';
import { useRouteError } from 'react-router-dom';
import { errorMessage } from '../api/errors';
import { SupportTicketDialog } from '../components/SupportTicketDialog';
import { appendErrorLog } from '../state/errorLog';
import { logEntryFor } from '../state/reportError';
import { useDocumentTitle } from './documentTitle';

function logRenderError(error: unknown, componentStack?: string | null) {
  const entry = logEntryFor(error, `Rendering error: ${errorMessage(error)}`, location.pathname);
  if (componentStack) entry.Stack = `${entry.Stack ?? ''}\n${componentStack}`;
  appendErrorLog(localStorage, entry);
}

export function ErrorFallback() {
  const [ticketOpen, setTicketOpen] = useState(false);
  useDocumentTitle('Error');
  return (
    <div className="center-screen error-fallback">
      <div className="auth-card">
        <h1>Looks like we've got an error.</h1>
        <p>Something on this page failed to display. The details were saved to the error log on this browser.</p>
        <div className="fallback-links">
          {/* A full load, so the console starts afresh. */}
          <a href="/" className="button primary">Back to All Targets</a>
          <a href="#support" className="button secondary" onClick={(e) => { e.preventDefault(); setTicketOpen(true); }}>
            Submit a Support Ticket
          </a>
        </div>
      </div>
      {ticketOpen && <SupportTicketDialog onClose={() => setTicketOpen(false)} />}
    </div>
  );
}

/** The router's error element: errors thrown while rendering a route. */
export function RouteErrorFallback() {
  const error = useRouteError();
  useEffect(() => logRenderError(error), [error]);
  return <ErrorFallback />;
}

/** Catches what the router does not (the router itself, the providers). */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    logRenderError(error, info.componentStack);
  }

  override render() {
    return this.state.failed ? <ErrorFallback /> : this.props.children;
  }
}
