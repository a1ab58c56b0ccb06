import { describe, expect, it } from 'vitest';
import type { StaffAccount } from '../../../../server/contract/accounts';
import { agentsText, filterAccounts, parseEntitlement, statusText, tracesText } from './accountRows';

const a = (over: Partial<StaffAccount>): StaffAccount => ({
  Id: 2, Name: 'Acme', CreatedAt: 0, Plan: 'Team', EntitledTraces: 10, EntitledAgents: 3, Suspended: false, SuspendedReason: '',
  IsProvider: false, LocalMachine: false, Users: 1, Agents: 2, ActiveTraces: 4, ...over,
});

describe('staff accounts logic', () => {
  it('filters on name, plan and id', () => {
    const list = [a({ Id: 2, Name: 'Acme' }), a({ Id: 3, Name: 'Globex', Plan: 'Business' })];
    expect(filterAccounts(list, 'glob').map((x) => x.Id)).toEqual([3]);
    expect(filterAccounts(list, 'TEAM').map((x) => x.Id)).toEqual([2]);
    expect(filterAccounts(list, '3').map((x) => x.Id)).toEqual([3]);
    expect(filterAccounts(list, ' ').length).toBe(2);
  });

  it('words the status and the use', () => {
    expect(statusText(a({}))).toBe('Active');
    expect(statusText(a({ Suspended: true }))).toBe('Suspended');
    expect(statusText(a({ IsProvider: true }))).toBe('Provider');
    expect(tracesText(a({}))).toBe('4 of 10');
    // Granted the Local Machine (its traces are among the 4); the provider's own is not news.
    expect(tracesText(a({ LocalMachine: true }))).toBe('4 of 10, Local Machine');
    expect(tracesText(a({ LocalMachine: true, IsProvider: true }))).toBe('4 of 10');
    expect(agentsText(a({}))).toBe('2 of 3');
    expect(agentsText(a({ EntitledAgents: null }))).toBe('2 (no limit)');
  });

  it('parses entitlement fields', () => {
    expect(parseEntitlement('12', false)).toEqual({ value: 12 });
    expect(parseEntitlement(' 0 ', false)).toEqual({ value: 0 });
    expect(parseEntitlement('', true)).toEqual({ value: null });
    expect(parseEntitlement('', false)).toEqual({ problem: 'Enter a number.' });
    expect(parseEntitlement('-1', false)).toEqual({ problem: 'Enter a whole number.' });
    expect(parseEntitlement('1.5', true)).toEqual({ problem: 'Enter a whole number.' });
    expect(parseEntitlement('100001', false)).toEqual({ problem: 'At most 100000.' });
  });
});
