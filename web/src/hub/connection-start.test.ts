// The console re-reads the current user when its live connection first starts: a role change
// made between the sign-in's read of the user and the connection's start sent a UserUpdated
// that reached no one (a race a CI run hit in test/e2e/user-updated.test.ts). The SignalR
// client is replaced by a recorder of starts.
import { describe, expect, it, vi } from 'vitest';

const seen: string[] = [];

vi.mock('@microsoft/signalr', () => {
  class FakeConnection {
    state = 'Disconnected';
    on() {}
    onclose() {}
    onreconnecting() {}
    onreconnected() {}
    async start() {
      seen.push('start');
      this.state = 'Connected';
    }
    async stop() {
      this.state = 'Disconnected';
    }
  }
  class HubConnectionBuilder {
    withUrl() {
      return this;
    }
    withAutomaticReconnect() {
      return this;
    }
    configureLogging() {
      return this;
    }
    build() {
      return new FakeConnection();
    }
  }
  return { HubConnectionBuilder, HubConnectionState: { Connected: 'Connected', Disconnected: 'Disconnected' }, LogLevel: { Warning: 3 } };
});
vi.mock('../state/session', () => ({
  refreshCurrentUser: async () => {
    seen.push('user read');
  },
}));

describe('the hub connection', () => {
  it('re-reads the current user once it has connected, and not again while it stays connected', async () => {
    const { ensureStarted, stopHub } = await import('./connection');
    await ensureStarted();
    await ensureStarted();
    expect(seen).toEqual(['start', 'user read']);
    await stopHub();
  });
});
