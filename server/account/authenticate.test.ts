import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store, type Queryable } from '../store/db.js';
import { insertUser } from '../users/repository.js';
import { createLoginSession, deleteLoginSession, hashToken } from './login-sessions.js';
import { principalOfSession } from '../impersonation/resolve.js';
import { licenceCovers, principalFromToken } from './authenticate.js';
import { LicenseMode } from '../contract/account.js';
import type { LiveShareScope } from './principal.js';
import { openTestStore } from '../store/testing/test-store.js';
import { countingReads, heldReads } from '../store/testing/store-spies.js';

describe('principalFromToken', () => {
  let dir: string;
  let store: Store;
  let userId: number;
  const expiresIn = async (token: string) =>
    (
      await store.one<{ s: number }>(
        `SELECT epoch(expires_at) - epoch(now()) AS s FROM login_sessions WHERE token_hash = sha256($1)`,
        [token],
      )
    )?.s;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-auth-'));
    store = await openTestStore(dir);
    const account = await store.one<{ id: number }>(`INSERT INTO accounts (name) VALUES ('auth') RETURNING id`);
    userId = await store.exclusive((q) =>
      insertUser(q, { accountId: account!.id, name: 'dana', email: 'dana@example.org', passwordHash: 'x', roles: [], isRoot: false, tempPassword: false }),
    );
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds the user of a live session, slides a browser session past half its life, and refuses an expired one', async () => {
    const token = await store.exclusive((q) => createLoginSession(q, userId, false));
    expect((await principalFromToken(store, token))?.userId).toBe(userId);
    // Fresh: nothing to renew (12 h left).
    expect(await expiresIn(token)).toBeGreaterThan(11.9 * 3600);
    await store.run(`UPDATE login_sessions SET expires_at = now() + INTERVAL '2 hours' WHERE token_hash = sha256($1)`, [token]);
    expect((await principalFromToken(store, token))?.userId).toBe(userId);
    expect(await expiresIn(token)).toBeGreaterThan(11.9 * 3600);
    await store.run(`UPDATE login_sessions SET expires_at = now() - INTERVAL '1 second' WHERE token_hash = sha256($1)`, [token]);
    expect(await principalFromToken(store, token)).toBeUndefined();
    expect(await principalFromToken(store, 'no-such-token')).toBeUndefined();
  });

  it('reads a session twice at most for a burst of one browser\'s requests, and never answers from a read begun before a sign-out', async () => {
    const token = await store.exclusive((q) => createLoginSession(q, userId, true));
    const { store: counted, reads } = countingReads(store);
    const burst = await Promise.all(Array.from({ length: 20 }, () => principalFromToken(counted, token)));
    expect(burst.every((p) => p?.userId === userId)).toBe(true);
    expect(reads()).toBeLessThanOrEqual(2);
    // A read under way when the session ends (its answer held until then): a request made
    // after the sign-out is refused, not answered from that read.
    const { store: held, hasRun, open } = heldReads(store);
    const before = principalFromToken(held, token);
    await hasRun;
    await store.exclusive((q) => deleteLoginSession(q, token));
    const after = principalFromToken(held, token);
    open();
    expect((await before)?.userId).toBe(userId);
    expect(await after).toBeUndefined();
  });

  it('signs a session in with one statement, the same principal as reading it step by step (provider flag included)', async () => {
    const token = await store.exclusive((q) => createLoginSession(q, userId, true));
    const { accountId } = (await store.one<{ accountId: number }>('SELECT account_id AS "accountId" FROM users WHERE id = $1', [userId]))!;
    await store.run('DELETE FROM account_plans WHERE account_id = $1', [accountId]);
    await store.run('INSERT INTO account_plans (account_id, provider) VALUES ($1, true)', [accountId]);
    try {
      let statements = 0;
      const counting: Store = new Proxy(store, {
        get(target, name) {
          const value = Reflect.get(target, name, target) as unknown;
          if (name !== 'read') return typeof value === 'function' ? value.bind(target) : value;
          return (fn: (q: Queryable) => Promise<unknown>, opts?: unknown) =>
            target.read(
              (q) =>
                fn(
                  new Proxy(q, {
                    get: (t, k) => {
                      const v = Reflect.get(t, k, t) as unknown;
                      return typeof v === 'function' ? (...a: unknown[]) => (statements++, (v as (...x: unknown[]) => unknown).apply(t, a)) : v;
                    },
                  }),
                ),
              opts as undefined,
            );
        },
      });
      const p = await principalFromToken(counting, token);
      expect(statements).toBe(1);
      const stepByStep = await store.read((q) => principalOfSession(q, userId, hashToken(token)));
      expect(p).toEqual(stepByStep);
      expect(p?.provider).toBe(true);
    } finally {
      await store.run('DELETE FROM account_plans WHERE account_id = $1', [accountId]);
    }
  });

  it('answers while an ingest transaction holds the writer', async () => {
    const token = await store.exclusive((q) => createLoginSession(q, userId, true));
    let release!: () => void;
    let began!: () => void;
    const holding = new Promise<void>((r) => (began = r));
    const held = store.transaction(() => new Promise<void>((r) => ((release = r), began())), { background: true });
    await holding; // the transaction is open (on PostgreSQL it starts on a client of its own)
    try {
      const waited = new Promise((_, reject) => setTimeout(() => reject(new Error('waited for the writer')), 5_000));
      const p = (await Promise.race([principalFromToken(store, token), waited])) as { userId: number } | undefined;
      expect(p?.userId).toBe(userId);
    } finally {
      release();
      await held;
    }
  });
});

describe('licenceCovers', () => {
  const scope = (sidekick: boolean) => ({ liveShare: { sidekick } as LiveShareScope });
  const on = (licenseMode: LicenseMode) => ({ licenseMode });

  it('is the server licence, for users and visitors', () => {
    expect(licenceCovers(on(LicenseMode.Professional), LicenseMode.Professional)).toBe(true);
    expect(licenceCovers(on(LicenseMode.Professional), LicenseMode.Professional, scope(false))).toBe(true);
    expect(licenceCovers(on(LicenseMode.Standard), LicenseMode.Professional, scope(true))).toBe(false);
    expect(licenceCovers(on(LicenseMode.Sidekick), LicenseMode.Professional)).toBe(false);
    expect(licenceCovers(on(LicenseMode.Sidekick), LicenseMode.Professional, {})).toBe(false);
  });

  it('lets a Sidekick export visitor have the Professional viewer on a Sidekick server, nothing more', () => {
    expect(licenceCovers(on(LicenseMode.Sidekick), LicenseMode.Professional, scope(true))).toBe(true);
    expect(licenceCovers(on(LicenseMode.Sidekick), LicenseMode.Professional, scope(false))).toBe(false);
    expect(licenceCovers(on(LicenseMode.Free), LicenseMode.Professional, scope(true))).toBe(false);
    expect(licenceCovers(on(LicenseMode.Sidekick), LicenseMode.Standard, scope(true))).toBe(false);
  });
});
