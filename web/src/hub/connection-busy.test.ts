// A group join (RegisterForNewSamples...) that the server refuses as too busy (an overloaded
// store's read: 503 over REST, the same text as a hub completion error) is asked again after
// the server's Retry-After, so an open target window does not stay without live updates until
// the next reconnect; a refusal that stays (rights, a deleted target) is not asked again, and a
// group left meanwhile is not joined again. The SignalR client is web/src/hub/fakeSignalr.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ServerBusyText } from '../../../server/contract/busy';
import { answers, connections, events } from './fakeSignalr';

vi.mock('@microsoft/signalr', () => import('./fakeSignalr'));
vi.mock('../state/session', () => ({ refreshCurrentUser: async () => undefined }));

const busy = () => Promise.reject(new Error(`${ServerBusyText} (300 reads are waiting); try again in a few seconds.`));
const joins = () => events.filter((e) => e === 'invoke RegisterForNewSamples').length;
/** Each test's group, left after it even when it fails (a group kept is joined again at the next test's start). */
let leave: () => void = () => undefined;

describe('a group join refused', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    events.length = 0;
  });
  afterEach(async () => {
    leave();
    answers.invoke = undefined;
    const { stopHub } = await import('./connection');
    await stopHub();
    vi.useRealTimers();
  });

  it('as too busy is asked again after the Retry-After until it is taken', async () => {
    const { keepRegistered, BusyRetryMs } = await import('./connection');
    let refusals = 2;
    answers.invoke = (method) => (method === 'RegisterForNewSamples' && refusals-- > 0 ? busy() : Promise.resolve(null));
    leave = keepRegistered('RegisterForNewSamples', 'UnregisterForNewSamples', '12');
    await vi.advanceTimersByTimeAsync(0);
    expect(joins()).toBe(1);
    await vi.advanceTimersByTimeAsync(BusyRetryMs);
    expect(joins()).toBe(2);
    await vi.advanceTimersByTimeAsync(BusyRetryMs);
    expect(joins()).toBe(3);
    await vi.advanceTimersByTimeAsync(BusyRetryMs * 3);
    expect(joins()).toBe(3);
  });

  it('for another reason is not asked again', async () => {
    const { keepRegistered, BusyRetryMs } = await import('./connection');
    answers.invoke = () => Promise.reject(new Error('You do not have access to this target.'));
    leave = keepRegistered('RegisterForNewSamples', 'UnregisterForNewSamples', '12');
    await vi.advanceTimersByTimeAsync(BusyRetryMs * 3);
    expect(joins()).toBe(1);
  });

  it('as too busy is not asked again once the group is left', async () => {
    const { keepRegistered, BusyRetryMs } = await import('./connection');
    answers.invoke = (method) => (method === 'RegisterForNewSamples' ? busy() : Promise.resolve(null));
    leave = keepRegistered('RegisterForNewSamples', 'UnregisterForNewSamples', '12');
    await vi.advanceTimersByTimeAsync(0);
    leave();
    await vi.advanceTimersByTimeAsync(BusyRetryMs * 3);
    expect(joins()).toBe(1);
  });

  it('as too busy, then joined again by a reconnect, is asked again by one chain, not two', async () => {
    const { keepRegistered, BusyRetryMs } = await import('./connection');
    answers.invoke = (method) => (method === 'RegisterForNewSamples' ? busy() : Promise.resolve(null));
    leave = keepRegistered('RegisterForNewSamples', 'UnregisterForNewSamples', '12');
    await vi.advanceTimersByTimeAsync(0);
    expect(joins()).toBe(1);
    // Halfway through the wait the connection drops and comes back: the reconnect joins again
    // (refused too); the first refusal's wait must not also ask once it is over.
    await vi.advanceTimersByTimeAsync(BusyRetryMs / 2);
    connections[connections.length - 1].reconnected();
    await vi.advanceTimersByTimeAsync(0);
    expect(joins()).toBe(2);
    await vi.advanceTimersByTimeAsync(BusyRetryMs * 4);
    // One ask per Retry-After from the reconnect's join on: 4 more, not 4 + 4.
    expect(joins()).toBe(6);
  });
});
