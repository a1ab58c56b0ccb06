// First start: create the account and its root user. A generated password is printed once
// to standard output (never to the log) and flagged temporary until the user changes it.
import type { Config } from '../config.js';
import type { Store } from '../store/db.js';
import { dialectOf } from '../store/dialect.js';
import { insertUser, rootUserExists } from '../users/repository.js';
import { generatePassword, hashPassword } from './passwords.js';

/** The transaction lock under which replicas sharing one PostgreSQL make the root user: one of them does. */
export const RootUserLockKey = 0x486f7072; // 'Hopr'

export async function ensureRootUser(store: Store, config: Config, print: (line: string) => void): Promise<boolean> {
  const exists = await store.exclusive((q) => rootUserExists(q));
  if (exists) return false;
  const given = config.rootPassword;
  const password = given ?? generatePassword();
  const hash = await hashPassword(password);
  const made = await store.transaction(async (q) => {
    // Replicas starting together on one database: the first to take the lock makes the root
    // user, the others wait for its commit and then find it (DuckDB has one writer anyway).
    if (dialectOf(q) === 'postgres') {
      await q.one('SELECT pg_advisory_xact_lock($1)', [RootUserLockKey]);
      if (await rootUserExists(q)) return false;
    }
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
    return true;
  });
  if (!made) return false;
  if (given === undefined) {
    print(`Root user "${config.rootUser}" created with a temporary password: ${password}`);
    print('Sign in and change it; it is shown only this once.');
  } else {
    print(`Root user "${config.rootUser}" created with the password from HOPWATCH_ROOT_PASSWORD.`);
  }
  return true;
}
