import { describe, expect, it } from 'vitest';
import { filterUsers } from './service.js';

const u = (EmailAddress: string) => ({ Id: 1, Name: EmailAddress, EmailAddress, Roles: [], IsRoot: false });

describe('filterUsers', () => {
  it('matches the e-mail case-insensitively, then case-sensitively', () => {
    const list = [u('Ann@x.org'), u('bob@x.org')];
    expect(filterUsers(list, 'ANN').map((x) => x.EmailAddress)).toEqual(['Ann@x.org']);
    expect(filterUsers(list, '@x.org')).toHaveLength(2);
    expect(filterUsers(list, 'zed')).toEqual([]);
    expect(filterUsers(list, undefined)).toHaveLength(2);
  });
});
