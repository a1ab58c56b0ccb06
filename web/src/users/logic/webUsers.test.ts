import { describe, expect, it } from 'vitest';
import type { WebUser } from '../../../../server/contract/users';
import { newWebUser, visibleUsers } from './webUsers';

const u = (Id: number, EmailAddress: string, IsRoot = false): WebUser => ({ Id, Name: EmailAddress, EmailAddress, Roles: [], IsRoot });
const users = [u(1, 'admin', true), u(2, 'Ann@Example.org'), u(3, 'bob@example.org'), u(4, 'ANN@other.org')];

describe('visibleUsers', () => {
  it('hides root users', () => {
    expect(visibleUsers(users, '').map((x) => x.Id)).toEqual([2, 3, 4]);
    expect(visibleUsers(users, 'admin')).toEqual([]);
  });
  it('matches the e-mail ignoring case first', () => {
    expect(visibleUsers(users, 'ann').map((x) => x.Id)).toEqual([2, 4]);
    expect(visibleUsers(users, 'EXAMPLE').map((x) => x.Id)).toEqual([2, 3]);
  });
  it('falls back to a case-sensitive match only when the first finds nothing', () => {
    expect(visibleUsers(users, 'zzz')).toEqual([]);
  });
});

describe('newWebUser', () => {
  it('trims the e-mail and carries the roles', () => {
    expect(newWebUser(' c@x.org ', ['TargetManagement'])).toEqual({ Id: 0, Name: '', EmailAddress: 'c@x.org', Roles: ['TargetManagement'], IsRoot: false });
  });
});
