// preload.ts: the list is asked for only when the console starts on /sessions, taken once,
// and a failed preload leaves the page to ask again.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { preloadSessions, rememberSessionsReadable, takePreloadedSessions } from './preload';

/** A browser whose last user held SessionManagement (or not). */
const storageOf = (claims: string[]) => {
  const map = new Map<string, string>();
  const storage = { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) };
  rememberSessionsReadable(claims, storage);
  return storage;
};
const reader = storageOf(['SessionManagement', 'TargetManagement']);

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
    preloadSessions('/targets/1', reader);
    expect(fetch).not.toHaveBeenCalled();
    expect(takePreloadedSessions()).toBeNull();
    preloadSessions('/sessions', reader);
    expect(fetch).toHaveBeenCalledWith('/api/Sessions', expect.objectContaining({ method: 'GET' }));
    expect(await takePreloadedSessions()).toEqual([{ SessionID: 7 }]);
    expect(takePreloadedSessions()).toBeNull();
  });

  it('asks nothing for a user who may not read the list (issue 41 item 14: it drew a 403), nor before any user was known', () => {
    const fetch = vi.fn(async () => answer(200, []));
    vi.stubGlobal('fetch', fetch);
    preloadSessions('/sessions', storageOf(['TargetManagement']));
    preloadSessions('/sessions', { getItem: () => null, setItem: () => undefined });
    expect(fetch).not.toHaveBeenCalled();
    expect(takePreloadedSessions()).toBeNull();
  });

  it('a failed preload rejects for the page to ask again; an old one is not used', async () => {
    vi.stubGlobal('location', { pathname: '/sessions' });
    vi.stubGlobal('fetch', vi.fn(async () => answer(401, { Error: 'Sign in.' })));
    preloadSessions('/sessions/', reader);
    await expect(takePreloadedSessions()).rejects.toThrow();
    vi.useFakeTimers();
    vi.stubGlobal('fetch', vi.fn(async () => answer(200, [])));
    preloadSessions('/sessions', reader);
    vi.advanceTimersByTime(16_000);
    expect(takePreloadedSessions()).toBeNull();
  });
});
