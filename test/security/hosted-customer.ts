// A customer account of a hosted (HOPWATCH_DEPLOYMENT=1) appliance, made the way the provider
// makes one: a staff user creates it (POST /api/staff/accounts), its first user (every
// assignable claim, not root) signs in with the one-time password and chooses their own.
import { expect } from 'vitest';
import type { CreatedAccount } from '../../server/contract/accounts.js';
import { signIn, type Appliance } from '../support/appliance.js';
import { caller, q } from './support.js';

export interface HostedCustomer {
  accountId: number;
  email: string;
  password: string;
  cookie: string;
}

/** Creates the account as the staff user `staff` and signs its first user in with a password of their own. */
export async function hostedCustomer(hw: Appliance, staff: { user: string; password: string }, name: string, email: string): Promise<HostedCustomer> {
  const call = caller(hw);
  const staffCookie = await signIn(hw.url, staff.user, staff.password);
  const made = await call('/api/staff/accounts', staffCookie, { method: 'POST', body: JSON.stringify({ Name: name, UserEmail: email }) });
  const text = await made.text();
  expect(made.status, text).toBe(200);
  const created = JSON.parse(text) as CreatedAccount;
  const temporary = await signIn(hw.url, email, created.TemporaryPassword);
  const password = `Own-pw-${created.Account.Id}-customer`;
  const changed = await call(`/api/Account?newPassword=${q(password)}`, temporary, { method: 'PATCH' });
  expect(changed.status, await changed.clone().text()).toBe(200);
  return { accountId: created.Account.Id, email, password, cookie: await signIn(hw.url, email, password) };
}
