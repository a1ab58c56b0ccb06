// The one path every failure takes (spec 1 section 8): pick the message, append it to the
// local error log, show an "Error" toast and keep it in the bottom banner. Unhandled promise
// rejections are routed here too.
import { ServerError, errorMessage, isSuppressedError } from '../api/errors';
import { errorBannerAtom } from './dialogs';
import { appendErrorLog, type ErrorLogEntry } from './errorLog';
import { store } from './store';
import { showToast } from './toasts';

const MaxBodyInLog = 4096;

export function logEntryFor(error: unknown, message: string, path: string, now = new Date()): ErrorLogEntry {
  const entry: ErrorLogEntry = { Time: now.toISOString(), Message: message, Path: path };
  if (error instanceof ServerError) {
    entry.Status = error.status;
    entry.Url = error.url;
    if (error.body) entry.Body = error.body.slice(0, MaxBodyInLog);
  }
  if (error instanceof Error && error.stack) entry.Stack = error.stack;
  return entry;
}

export function reportError(error: unknown, options: { prefix?: string; submittable?: boolean } = {}): void {
  if (isSuppressedError(error)) return;
  const message = (options.prefix ?? '') + errorMessage(error);
  appendErrorLog(localStorage, logEntryFor(error, message, location.pathname));
  showToast('error', message, options.submittable ?? true);
  store.set(errorBannerAtom, message);
}

export function installGlobalErrorHandlers(): void {
  window.addEventListener('unhandledrejection', (event) => reportError(event.reason));
  window.addEventListener('error', (event) => {
    // Browser notices that are not failures of the console: layout-loop warnings and
    // opaque cross-origin script errors carry nothing a person could act on.
    if (!event.error && /^(ResizeObserver loop|Script error)/.test(event.message)) return;
    reportError(event.error ?? event.message);
  });
}
