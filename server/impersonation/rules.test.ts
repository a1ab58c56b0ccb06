import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../users/repository.js';
import { impersonationProblem } from './rules.js';

const user = (id: number, roles: string[], more: Partial<UserRecord> = {}): UserRecord => ({
  id,
  accountId: 1,
  name: `u${id}@example.org`,
  email: `u${id}@example.org`,
  passwordHash: '',
  roles,
  isRoot: false,
  tempPassword: false,
  ...more,
});

describe('who may impersonate whom', () => {
  const actor = user(1, ['ImpersonateUser', 'TargetManagement']);

  it('allows a user of the account holding no claim the actor lacks', () => {
    expect(impersonationProblem(actor, user(2, ['TargetManagement']))).toBeUndefined();
    expect(impersonationProblem(actor, user(3, [], { tempPassword: true }))).toBeUndefined();
  });

  it('never climbs: root, self, more claims, another account, or no ImpersonateUser', () => {
    expect(impersonationProblem(actor, user(2, [], { isRoot: true }))).toBe('The root user cannot be impersonated.');
    expect(impersonationProblem(actor, actor)).toBe('You cannot impersonate yourself.');
    expect(impersonationProblem(actor, user(2, ['TargetManagement', 'UserManagement']))).toMatch(/\(UserManagement\)/);
    expect(impersonationProblem(actor, user(2, ['ImpersonateUser', 'TargetManagement']))).toBeUndefined();
    expect(impersonationProblem(actor, user(2, [], { accountId: 2 }))).toBe('User 2 not found.');
    expect(impersonationProblem(user(1, ['TargetManagement']), user(2, []))).toMatch(/ImpersonateUser/);
  });

  it('lets root impersonate any web user, since root holds every claim', () => {
    const root = user(1, [], { isRoot: true });
    expect(impersonationProblem(root, user(2, ['UserManagement', 'SettingsManagement', 'ImpersonateUser']))).toBeUndefined();
  });
});
