// Issue 41 item 6: a 403 for a feature that is off ("Insights are off on this server") sent a
// signed-in user to /login. Only a 401 signs out; the two session-wide 403s say so by header.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ExpiredTrialHeader, TemporaryPasswordHeader } from '../../../server/contract/account';
import { request, setUnauthorizedHandler, type UnauthorizedHandler } from './http';
import { ServerError, isSuppressedError } from './errors';
import { sessionAnswer } from './signedOut';

const headers = (h: Record<string, string> = {}) => new Headers(h);

describe('sessionAnswer: which answers sign out', () => {
  it('a 401 (the session check) signs out', () => {
    expect(sessionAnswer(401, headers())).toBe('signedOut');
    expect(sessionAnswer(401, undefined)).toBe('signedOut');
  });
  it('a 403 without a session header is only that call refused', () => {
    expect(sessionAnswer(403, headers())).toBeUndefined();
    expect(sessionAnswer(403, headers({ 'content-type': 'application/json' }))).toBeUndefined();
    expect(sessionAnswer(403, undefined)).toBeUndefined();
  });
  it('a 403 with temporary-password: True asks for a new password; with expired-trial: True the trial ended', () => {
    expect(sessionAnswer(403, headers({ [TemporaryPasswordHeader]: 'True' }))).toBe('temporaryPassword');
    expect(sessionAnswer(403, headers({ [ExpiredTrialHeader]: 'True' }))).toBe('trialExpired');
    expect(sessionAnswer(403, headers({ [ExpiredTrialHeader]: 'False' }))).toBeUndefined();
  });
  it('other statuses are never about the session', () => {
    for (const status of [0, 400, 404, 409, 500, 503]) expect(sessionAnswer(status, headers({ [TemporaryPasswordHeader]: 'True' }))).toBeUndefined();
  });
});

describe('the fetch wrapper follows the rule', () => {
  let calls: Parameters<UnauthorizedHandler>[0][] = [];
  const answer = (status: number, body: string, h: Record<string, string> = {}) =>
    vi.stubGlobal('fetch', async () => new Response(body, { status, headers: { 'content-type': 'application/json', ...h } }));

  beforeEach(() => {
    calls = [];
    vi.stubGlobal('location', { pathname: '/target/3' });
    setUnauthorizedHandler((info) => calls.push(info));
  });
  afterEach(() => {
    setUnauthorizedHandler(undefined);
    vi.unstubAllGlobals();
  });

  it('"Insights are off on this server" (403) fails the call and leaves the session alone', async () => {
    answer(403, '{"Error":"Insights are off on this server"}');
    const error = await request('POST', '/api/wisdom').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).status).toBe(403);
    expect(calls).toEqual([]);
    // Not hidden as "handled by the redirect": the screen shows the refusal.
    expect(isSuppressedError(error)).toBe(false);
  });

  it('a 401 hands over to the shell (sign in again)', async () => {
    answer(401, '{"Error":"You are not signed in."}');
    const error = await request('GET', '/api/targets').catch((e: unknown) => e);
    expect(calls).toEqual([{ status: 401, expired: false, temporaryPassword: false }]);
    expect(isSuppressedError(error)).toBe(true);
  });

  it('the temporary-password 403 still opens the change-password dialog', async () => {
    answer(403, '{"Error":"Replace your temporary password first."}', { [TemporaryPasswordHeader]: 'True' });
    await request('GET', '/api/targets').catch(() => undefined);
    expect(calls).toEqual([{ status: 403, expired: false, temporaryPassword: true }]);
  });

  it('the expired-trial 403 still goes to the trial page', async () => {
    answer(403, '{"Error":"Your trial has expired."}', { [ExpiredTrialHeader]: 'True' });
    await request('GET', '/api/targets').catch(() => undefined);
    expect(calls).toEqual([{ status: 403, expired: true, temporaryPassword: false }]);
  });
});
