// First start: create the account and its root user. A generated password is printed once
// to standard output (never to the log) and flagged temporary until the user changes it.
import type { Config } from '../config.js';
import type { Store } from '../store/db.js';
import { insertUser, rootUserExists } from '../users/repository.js';
import { generatePassword, hashPassword } from './passwords.js';

export async function ensureRootUser(store: Store, config: Config, print: (line: string) => void): Promise<boolean> {
  const exists = await store.exclusive((q) => rootUserExists(q));
  if (exists) return false;
  const given = config.rootPassword;
  const password = given ?? generatePassword();
  const hash = await hashPassword(password);
  await store.transaction(async (q) => {
    const account = await q.one<{ id: number }>(`INSERT INTO accounts (name) VALUES ('Default') RETURNING id`);
    await insertUser(q, {
      accountId: account!.id,
      name: config.rootUser,
      email: config.rootUser,
      passwordHash: hash,
      roles: [],
      isRoot: true,
      tempPassword: given === undefined,
    });
  });
  if (given === undefined) {
    print(`Root user "${config.rootUser}" created with a temporary password: ${password}`);
    print('Sign in and change it; it is shown only this once.');
  } else {
    print(`Root user "${config.rootUser}" created with the password from HOPWATCH_ROOT_PASSWORD.`);
  }
  return true;
}
