import { describe, expect, it } from 'vitest';
import { ServerError, UnexpectedServerError, bodyErrorText, errorMessage, isSuppressedError, unexpectedServerErrorMessage } from './errors';

describe('error message extraction', () => {
  it('uses the Error field of a JSON body', () => {
    const e = new ServerError(UnexpectedServerError, 400, '{"Error":"Name is required"}');
    expect(errorMessage(e)).toBe('Name is required');
    expect(e.status).toBe(400);
    expect(e.json).toEqual({ Error: 'Name is required' });
  });

  it('falls back to the generic message when the body has no Error field', () => {
    expect(errorMessage(new ServerError(UnexpectedServerError, 500, '<html>oops</html>'))).toBe('An unexpected server error occurred.');
    expect(errorMessage(new ServerError(UnexpectedServerError, 500, '{"Error":""}'))).toBe(UnexpectedServerError);
    expect(errorMessage(new ServerError(UnexpectedServerError, 502, ''))).toBe(UnexpectedServerError);
  });

  it('uses the exception message for other errors, and plain strings as they are', () => {
    expect(errorMessage(new TypeError('x is undefined'))).toBe('x is undefined');
    expect(errorMessage('went wrong')).toBe('went wrong');
    expect(errorMessage({ Error: 'from an object' })).toBe('from an object');
    expect(errorMessage({ message: 'from a message' })).toBe('from a message');
  });

  it('reads the Error field from text or objects', () => {
    expect(bodyErrorText('{"Error":"a"}')).toBe('a');
    expect(bodyErrorText({ Error: 'b' })).toBe('b');
    expect(bodyErrorText('nope')).toBeUndefined();
    expect(bodyErrorText({ Error: 3 })).toBeUndefined();
  });

  it('suppresses status 0 with no message, and nothing else', () => {
    expect(isSuppressedError(new ServerError('', 0, ''))).toBe(true);
    expect(isSuppressedError({ status: 0 })).toBe(true);
    expect(isSuppressedError(new ServerError('The Hopwatch server could not be reached.', 0, ''))).toBe(false);
    expect(isSuppressedError(new ServerError(UnexpectedServerError, 500, ''))).toBe(false);
    expect(isSuppressedError(new Error(''))).toBe(false);
  });

  it('suppresses a 401/403 that already sent the user to sign in, not one that did not', () => {
    const handled = new ServerError(UnexpectedServerError, 401, '');
    handled.redirectedToLogin = true;
    expect(isSuppressedError(handled)).toBe(true);
    expect(isSuppressedError(new ServerError(UnexpectedServerError, 403, '{"Error":"Missing claim"}'))).toBe(false);
  });

  it("a failed answer's message carries the status and the server's Error text (what console warnings print)", () => {
    const body = '{"Error":"Target 999 not found."}';
    const e = new ServerError(unexpectedServerErrorMessage(404, body), 404, body);
    expect(e.message).toBe('An unexpected server error occurred. (HTTP 404: Target 999 not found.)');
    expect(String(e)).toContain('Target 999 not found.');
    expect(errorMessage(e)).toBe('Target 999 not found.');
    expect(unexpectedServerErrorMessage(502, '<html>bad gateway</html>')).toBe('An unexpected server error occurred. (HTTP 502)');
  });
});
