// Cloud mode (spec 3 section 7.5): the hub connection sends the bearer token and starts only
// once one is set. The SignalR client is replaced by a recorder: what matters here is which
// options the connection is built with and when it is started.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { built, events } from './fakeSignalr';

vi.mock('@microsoft/signalr', () => import('./fakeSignalr'));
const starts = () => events.filter((e) => e === 'start').length;
vi.mock('../state/session', () => ({ refreshCurrentUser: async () => undefined }));

afterEach(() => {
  vi.useRealTimers();
});

describe('the hub connection in cloud mode', () => {
  it('waits for a token, then connects sending it', async () => {
    vi.useFakeTimers();
    const { ensureStarted, setBearerTokenSource, stopHub } = await import('./connection');
    let token: string | undefined;
    setBearerTokenSource(async () => token);
    const started = ensureStarted();
    await vi.advanceTimersByTimeAsync(10_000);
    // Signed out: no attempt at all (no 401s knocking every 2.5 s).
    expect(starts()).toBe(0);
    token = 'the-session-token';
    await vi.advanceTimersByTimeAsync(3_000);
    await started;
    expect(starts()).toBe(1);
    expect(await built.at(-1)!.options.accessTokenFactory!()).toBe('the-session-token');
    await stopHub();
  });
});
