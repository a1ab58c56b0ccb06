// The hub's session cache (CurrentPrincipals): 5,000 consoles connecting at once, or coming
// back after a restart, are a few browsers' sessions asked thousands of times (docs/hub.md,
// "5,000 consoles"). Each session is read once, however many ask at the same moment, and
// forgotten the moment it ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { DomainEventBus } from '../events.js';
import type { Store } from '../store/db.js';
import { openTestStore } from '../store/testing/test-store.js';
import { countingReads, heldReads } from '../store/testing/store-spies.js';
import { insertUser } from '../users/repository.js';
import { CurrentPrincipals } from './current-principals.js';
import { createLoginSession, deleteLoginSession, hashToken } from './login-sessions.js';

describe('CurrentPrincipals', () => {
  let dir: string;
  let store: Store;
  let userId: number;
  /** The store, counting the reads made through it. */
  let counted: Store;
  let reads: () => number;
  let reset: () => void;
  const events = new DomainEventBus();
  const expiresIn = async (token: string) =>
    (await store.one<{ s: number }>(`SELECT epoch(expires_at) - epoch(now()) AS s FROM login_sessions WHERE token_hash = sha256($1)`, [token]))?.s;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-principals-'));
    store = await openTestStore(dir);
    const account = await store.one<{ id: number }>(`INSERT INTO accounts (name) VALUES ('principals') RETURNING id`);
    userId = await store.exclusive((q) =>
      insertUser(q, { accountId: account!.id, name: 'dana', email: 'dana@example.org', passwordHash: 'x', roles: [], isRoot: false, tempPassword: false }),
    );
    ({ store: counted, reads, reset } = countingReads(store));
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const principals = () => new CurrentPrincipals(counted, loadConfig({ HOPWATCH_DATA_DIR: dir }), events);

  it('reads a session once for many callers asking at the same moment', async () => {
    const token = await store.exclusive((q) => createLoginSession(q, userId, true));
    const cache = principals();
    reset();
    const answers = await Promise.all(Array.from({ length: 20 }, () => cache.of(hashToken(token))));
    expect(answers.every((p) => p?.userId === userId)).toBe(true);
    expect(reads()).toBe(1);
    await cache.of(hashToken(token));
    expect(reads()).toBe(1);
    cache.close();
  });

  it('signs a connection in by its session token from the cache, and not once the session ended', async () => {
    const token = await store.exclusive((q) => createLoginSession(q, userId, true));
    const cache = principals();
    reset();
    expect((await cache.ofToken(token))?.userId).toBe(userId);
    expect((await cache.ofToken(token))?.loginSession).toBe(hashToken(token));
    expect(reads()).toBe(1);
    expect(await cache.ofToken('no-such-token')).toBeUndefined();
    expect(await cache.ofToken(undefined)).toBeUndefined();
    // Signed out: the event forgets it, the next sign-in of a connection reads it and finds none.
    await store.exclusive((q) => deleteLoginSession(q, token));
    events.emit('SignedOut', hashToken(token));
    expect(await cache.ofToken(token)).toBeUndefined();
    cache.close();
  });

  it('never answers a caller after a sign-out from a read begun before it', async () => {
    const token = await store.exclusive((q) => createLoginSession(q, userId, true));
    const { store: held, hasRun, open } = heldReads(store);
    const cache = new CurrentPrincipals(held, loadConfig({ HOPWATCH_DATA_DIR: dir }), events);
    const before = cache.of(hashToken(token));
    await hasRun;
    await store.exclusive((q) => deleteLoginSession(q, token));
    events.emit('SignedOut', hashToken(token));
    const after = cache.of(hashToken(token));
    open();
    expect((await before)?.userId).toBe(userId);
    expect(await after).toBeNull();
    cache.close();
  });

  it('slides a browser session past half its life forward, as a request signed in by its cookie does', async () => {
    const token = await store.exclusive((q) => createLoginSession(q, userId, false));
    await store.run(`UPDATE login_sessions SET expires_at = now() + INTERVAL '2 hours' WHERE token_hash = sha256($1)`, [token]);
    const cache = principals();
    expect((await cache.ofToken(token))?.userId).toBe(userId);
    expect(await expiresIn(token)).toBeGreaterThan(11.9 * 3600);
    expect((await cache.ofToken(token))?.userId).toBe(userId);
    cache.close();
  });
});
