// Staff users and other accounts for tests, written straight into a stopped appliance's
// database: the Staff claim is never given through the users API (provider personnel only),
// and this branch has no call that creates accounts. Imports the built store.
import { Store } from './built.js';
import type * as PasswordsModule from '../../server/account/passwords.js';
import type { Store as StoreType } from '../../server/store/db.js';
import { openTestStore } from '../../server/store/testing/test-store.js';
import { list } from '../../server/store/dialect.js';

const { hashPassword } = (await import(new URL('../../dist/server/account/passwords.js', import.meta.url).href)) as typeof PasswordsModule;

export interface SeedUser {
  name: string;
  email: string;
  password: string;
  roles: string[];
}

/** Every claim a web user can hold, and Staff: a staff user who may impersonate anyone. */
export const StaffRoles = ['Staff', 'ImpersonateUser', 'UserManagement', 'TargetManagement', 'SummaryManagement', 'CloudConnectManagement', 'SessionManagement', 'AlertsManagement', 'SettingsManagement'];

/** Creates an account with its users; answers the account's id and the users' ids by name. */
export async function seedAccount(dataDir: string, accountName: string, users: SeedUser[]): Promise<{ accountId: number; userIds: Record<string, number> }> {
  const store = await openTestStore(dataDir);
  try {
    const account = await store.one<{ id: number }>('INSERT INTO accounts (name) VALUES ($1) RETURNING id', [accountName]);
    const userIds: Record<string, number> = {};
    for (const u of users) {
      const row = await store.one<{ id: number }>(
        `INSERT INTO users (account_id, name, email, password_hash, roles) VALUES ($1, $2, $3, $4, $5::VARCHAR[]) RETURNING id`,
        [account!.id, u.name, u.email, await hashPassword(u.password), list(u.roles.filter((r) => r !== ''))],
      );
      userIds[u.name] = row!.id;
    }
    return { accountId: account!.id, userIds };
  } finally {
    await store.close();
  }
}

/** Runs `fn` on a stopped appliance's store (seed rows the suites need). */
export async function withStore<T>(dataDir: string, fn: (store: StoreType) => Promise<T>): Promise<T> {
  const store = await openTestStore(dataDir);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
