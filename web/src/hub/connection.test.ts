// invoke, subscribe and keepRegistered take their types from server/contract/mainhub.ts:
// checked by tsc (npm run typecheck); the calls below are never made.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Agent, AgentItem } from '../../../server/contract/agents';
import { reconnectDelayMs } from './connection';
import type { invoke, keepRegistered, subscribe } from './connection';

const call = (() => Promise.resolve()) as unknown as typeof invoke;
const on = (() => () => undefined) as unknown as typeof subscribe;
const join = (() => () => undefined) as unknown as typeof keepRegistered;

describe('typed hub calls', () => {
  it('answer what the contract says', () => {
    expectTypeOf(call('GetAgents')).resolves.toEqualTypeOf<(AgentItem & Partial<Agent>)[]>();
    expectTypeOf(call('ReresolveHost', '12_h_3')).resolves.toEqualTypeOf<string>();
  });

  it('refuse names and arguments the contract does not have', () => {
    const never = () => {
      // @ts-expect-error no such method
      void call('GetAgent');
      // @ts-expect-error GetAgents takes no arguments
      void call('GetAgents', 1);
      // @ts-expect-error UpdateHostValue takes id, name, value
      void call('UpdateHostValue', '12_h_3', 'Name');
      // @ts-expect-error HostUpdated carries (id, time) as text
      on('HostUpdated', (id: number) => id);
      // @ts-expect-error no such event
      on('HostUpdate', () => undefined);
      // @ts-expect-error comments are left with UnregisterForComments
      join('RegisterForComments', 'UnregisterForNewSamples', '12');
    };
    expectTypeOf(never).toBeFunction();
  });
});

describe('reconnect after a lost connection', () => {
  it('tries once at once, then every 2.5 s after each failed attempt (spec 3: retry 2500 ms)', () => {
    expect([0, 1, 2, 50].map(reconnectDelayMs)).toEqual([0, 2500, 2500, 2500]);
  });
});
