// The one error shape for server answers, and how a message is picked for display
// (spec 1 section 8: the body's Error field, else the exception's message).

/** Message of every non-200/204 answer. */
export const UnexpectedServerError = 'An unexpected server error occurred.';

/**
 * The message of a failed answer (spec 1 section 8: the generic message "plus status and
 * response body"): "An unexpected server error occurred. (HTTP 404: Target 9 not found.)".
 * Screens show the body's Error field (errorMessage); this message is what a log line or a
 * console warning of the raw error prints, so it carries the server's words too, not only
 * the generic sentence.
 */
export function unexpectedServerErrorMessage(status: number, body: string): string {
  const text = bodyErrorText(body);
  return `${UnexpectedServerError} (HTTP ${status}${text ? `: ${text}` : ''})`;
}

export class ServerError extends Error {
  constructor(
    message: string,
    /** HTTP status; 0 when the request never got an answer (aborted or network failure). */
    readonly status: number,
    /** Raw response text. */
    readonly body: string,
    readonly headers?: Headers,
    readonly url?: string,
  ) {
    super(message);
    this.name = 'ServerError';
  }

  /** Set when a 401/403 sent the user to sign in: the redirect is the whole answer. */
  redirectedToLogin = false;

  /** The body parsed as JSON, or undefined when it is not JSON. */
  get json(): unknown {
    try {
      return this.body ? JSON.parse(this.body) : undefined;
    } catch {
      return undefined;
    }
  }
}

/** The body's Error field when the body is a JSON object that carries one. */
export function bodyErrorText(body: unknown): string | undefined {
  let value = body;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (value && typeof value === 'object' && 'Error' in value) {
    const text = (value as { Error: unknown }).Error;
    if (typeof text === 'string' && text.trim() !== '') return text;
  }
  return undefined;
}

/** Text to show a person for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof ServerError) return bodyErrorText(error.body) ?? error.message;
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  const fromBody = bodyErrorText(error);
  if (fromBody) return fromBody;
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') return error.message;
  return String(error);
}

/**
 * Status code 0 with no message is noise (an aborted request), not an error to show; a
 * 401/403 that redirected to sign-in is handled by that redirect (spec 1 section 8).
 */
export function isSuppressedError(error: unknown): boolean {
  if (error === undefined || error === null) return true;
  if (error instanceof ServerError) return error.redirectedToLogin || (error.status === 0 && !error.message);
  if (typeof error === 'object' && 'status' in error && (error as { status: unknown }).status === 0) {
    const message = (error as { message?: unknown }).message;
    return typeof message !== 'string' || message === '';
  }
  return false;
}
