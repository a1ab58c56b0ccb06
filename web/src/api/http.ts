// The fetch wrapper every console call goes through (spec 1 sections 4 and 8): 200 gives the
// parsed body, 204 gives null, anything else throws a ServerError carrying status and body.
// An answer about the session (a 401; a 403 carrying the expired-trial or temporary-password
// header: signedOut.ts) outside the login page hands over to the registered handler; any
// other 403 is only that call's failure (issue 41 item 6).
import { ServerError, unexpectedServerErrorMessage } from './errors';
import { sessionAnswer } from './signedOut';

export interface RequestOptions {
  /** JSON body (serialised here). */
  json?: unknown;
  /** Raw text body sent as application/json (already JSON text). */
  jsonText?: string;
  /** false for calls whose 401 is an answer, not a lost session (current user, login). */
  authRedirect?: boolean;
  signal?: AbortSignal;
}

/** temporaryPassword: the server refused because the user must first replace a temporary password. */
export type UnauthorizedHandler = (info: { status: number; expired: boolean; temporaryPassword: boolean }) => void;

let onUnauthorized: UnauthorizedHandler | undefined;

/** The shell registers what a lost session does (clear user, go to /login). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | undefined): void {
  onUnauthorized = handler;
}

export function isLoginPath(pathname: string): boolean {
  return /^\/login(\/|$)/i.test(pathname);
}

/** Builds a URL with query parameters, skipping undefined ones. */
export function withQuery(path: string, query: Record<string, string | number | boolean | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export async function request<T>(method: string, url: string, options: RequestOptions = {}): Promise<T | null> {
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.jsonText !== undefined) {
    headers['content-type'] = 'application/json';
    body = options.jsonText;
  }

  let response: Response;
  try {
    response = await fetch(url, { method, headers, body, credentials: 'same-origin', signal: options.signal });
  } catch (e) {
    // An aborted request is status 0 with no message (suppressed); a network failure says so.
    const aborted = e instanceof DOMException && e.name === 'AbortError';
    throw new ServerError(aborted ? '' : 'The Hopwatch server could not be reached.', 0, '', undefined, url);
  }

  if (response.status === 204) return null;
  const text = await response.text();
  if (response.status !== 200) {
    const error = new ServerError(unexpectedServerErrorMessage(response.status, text), response.status, text, response.headers, url);
    const session = sessionAnswer(response.status, response.headers);
    if (session && options.authRedirect !== false && !isLoginPath(location.pathname)) {
      if (onUnauthorized) {
        error.redirectedToLogin = true;
        onUnauthorized({ status: response.status, expired: session === 'trialExpired', temporaryPassword: session === 'temporaryPassword' });
      }
    }
    throw error;
  }
  if (text === '') return null;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) return JSON.parse(text) as T;
  return text as T;
}

export const get = <T>(url: string, options?: RequestOptions) => request<T>('GET', url, options);
export const post = <T>(url: string, options?: RequestOptions) => request<T>('POST', url, options);
export const patch = <T>(url: string, options?: RequestOptions) => request<T>('PATCH', url, options);
