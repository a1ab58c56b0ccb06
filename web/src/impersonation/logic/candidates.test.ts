import { describe, expect, it } from 'vitest';
import { matchingCandidates, permissionsText } from './candidates';

const list = [
  { Id: 1, Name: 'Ann', EmailAddress: 'ann@example.org', Roles: [] },
  { Id: 2, Name: 'bob@example.org', EmailAddress: 'bob@example.org', Roles: ['TargetManagement'] },
];

describe('impersonation candidates', () => {
  it('match the search on e-mail or name, ignoring case and surrounding blanks', () => {
    expect(matchingCandidates(list, '')).toEqual(list);
    expect(matchingCandidates(list, '  BOB ').map((u) => u.Id)).toEqual([2]);
    expect(matchingCandidates(list, 'ann').map((u) => u.Id)).toEqual([1]);
    expect(matchingCandidates(list, 'nobody')).toEqual([]);
  });

  it('show permissions in words', () => {
    expect(permissionsText([])).toBe('No permissions');
    expect(permissionsText(['TargetManagement', 'SessionManagement'])).toBe('Target Management, Session Management');
  });
});

describe('audit rows', () => {
  it('say what happened', async () => {
    const { actionText } = await import('./audit');
    expect(actionText({ Action: 'start', Detail: '' })).toBe('Started impersonating');
    expect(actionText({ Action: 'end', Detail: '' })).toBe('Cleared impersonation');
    expect(actionText({ Action: 'call', Detail: 'PUT /api/kvp/set' })).toBe('PUT /api/kvp/set');
  });
});
