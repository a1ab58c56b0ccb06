// preload.ts: the list is asked for only when the console starts on /sessions, taken once,
// and a failed preload leaves the page to ask again.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { preloadSessions, takePreloadedSessions } from './preload';

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('sessions preload', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
    takePreloadedSessions();
  });

  it('asks only on the sessions page, and the page takes the answer once', async () => {
    const fetch = vi.fn(async () => answer(200, [{ SessionID: 7 }]));
    vi.stubGlobal('fetch', fetch);
    preloadSessions('/targets/1');
    expect(fetch).not.toHaveBeenCalled();
    expect(takePreloadedSessions()).toBeNull();
    preloadSessions('/sessions');
    expect(fetch).toHaveBeenCalledWith('/api/Sessions', expect.objectContaining({ method: 'GET' }));
    expect(await takePreloadedSessions()).toEqual([{ SessionID: 7 }]);
    expect(takePreloadedSessions()).toBeNull();
  });

  it('a failed preload rejects for the page to ask again; an old one is not used', async () => {
    vi.stubGlobal('location', { pathname: '/sessions' });
    vi.stubGlobal('fetch', vi.fn(async () => answer(401, { Error: 'Sign in.' })));
    preloadSessions('/sessions/');
    await expect(takePreloadedSessions()).rejects.toThrow();
    vi.useFakeTimers();
    vi.stubGlobal('fetch', vi.fn(async () => answer(200, [])));
    preloadSessions('/sessions');
    vi.advanceTimersByTime(16_000);
    expect(takePreloadedSessions()).toBeNull();
  });
});
