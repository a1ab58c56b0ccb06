import { describe, expect, it } from 'vitest';
import { offersReconnect } from './agentActions';

describe('the actions the agent detail offers', () => {
  it('offers Reconnect only for a remote agent that has connected before (issue 40 item 8)', () => {
    expect(offersReconnect({ ID: 4, Configured: false })).toBe(false); // PENDING: never installed
    expect(offersReconnect({ ID: 4, Configured: true })).toBe(true); // ONLINE or OFFLINE
    expect(offersReconnect({ ID: 4 })).toBe(false); // the hub's short list says nothing: not offered
    expect(offersReconnect({ ID: -1, Configured: true })).toBe(false); // the Local Machine has no link
  });
});
