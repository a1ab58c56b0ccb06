// The console re-reads the current user when its live connection first starts: a role change
// made between the sign-in's read of the user and the connection's start sent a UserUpdated
// that reached no one (a race a CI run hit in test/e2e/user-updated.test.ts). The SignalR
// client is replaced by web/src/hub/fakeSignalr.ts, which records starts.
import { describe, expect, it, vi } from 'vitest';

import { events } from './fakeSignalr';

vi.mock('@microsoft/signalr', () => import('./fakeSignalr'));
vi.mock('../state/session', async () => {
  const { events: seen } = await import('./fakeSignalr');
  return { refreshCurrentUser: async () => void seen.push('user read') };
});

describe('the hub connection', () => {
  it('re-reads the current user once it has connected, and not again while it stays connected', async () => {
    const { ensureStarted, stopHub } = await import('./connection');
    await ensureStarted();
    await ensureStarted();
    expect(events).toEqual(['start', 'user read']);
    await stopHub();
  });
});
