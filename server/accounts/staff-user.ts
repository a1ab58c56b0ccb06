// The first staff user (cloud mode), created at start from HOPWATCH_STAFF_USER like the root
// user: in the provider's own account ("Provider", marked provider in account_plans), holding
// Staff and ImpersonateUser. A generated password is printed once to standard output (never
// the log) and is temporary: the staff user must change it before any other call.
import { Claim } from '../contract/account.js';
import type { Config } from '../config.js';
import type { Queryable, Store } from '../store/db.js';
import { findUserByLogin, insertUser } from '../users/repository.js';
import { generatePassword, hashPassword } from '../account/passwords.js';
import { insertAccount, providerAccountId, savePlan } from './repository.js';

/** The claims of a staff user (Staff is never assignable through web-user management). */
export const StaffClaims: readonly string[] = [Claim.Staff, Claim.ImpersonateUser];

export const ProviderAccountName = 'Provider';

/** The provider account's id, made on first need. */
export async function ensureProviderAccount(q: Queryable): Promise<number> {
  const found = await providerAccountId(q);
  if (found !== undefined) return found;
  const id = await insertAccount(q, ProviderAccountName);
  await savePlan(q, id, { plan: 'Provider', entitledTraces: null, entitledAgents: null, suspended: false, suspendedReason: '', provider: true, localMachine: true });
  return id;
}

/**
 * A staff user in the provider account (tests and the first start use it). Returns the new
 * user's id. The name must be free (user names are unique across accounts).
 */
export async function createStaffUser(store: Store, name: string, password: string, temporary = false): Promise<number> {
  const hash = await hashPassword(password);
  return store.transaction(async (q) => {
    const accountId = await ensureProviderAccount(q);
    return insertUser(q, { accountId, name, email: name, passwordHash: hash, roles: [...StaffClaims], isRoot: false, tempPassword: temporary });
  });
}

export async function ensureStaffUser(store: Store, config: Config, print: (line: string) => void): Promise<boolean> {
  const name = config.staffUser;
  if (!name) return false;
  const existing = await store.read((q) => findUserByLogin(q, name));
  if (existing) {
    if (!existing.roles.includes(Claim.Staff)) print(`HOPWATCH_STAFF_USER names "${name}", an existing user who is not staff: no staff user was created.`);
    return false;
  }
  const given = config.staffPassword;
  const password = given ?? generatePassword();
  await createStaffUser(store, name, password, given === undefined);
  if (given === undefined) {
    // Worded apart from the root user's line, which test/support/appliance.ts reads.
    print(`Staff user "${name}" created; its one-time password is ${password}`);
    print('Sign in and change it; it is shown only this once.');
  } else {
    print(`Staff user "${name}" created with the password from HOPWATCH_STAFF_PASSWORD.`);
  }
  return true;
}
