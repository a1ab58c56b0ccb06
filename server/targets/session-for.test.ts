// sessionFor, the access check every registration makes (RegisterForNewSamples and the other
// Register... hub methods): thousands of consoles registering for one target at the same
// moment (a restart's reconnect storm) share one read of it (docs/hub.md, "5,000 consoles"),
// and a target created meanwhile is never answered "not found" from a read begun before it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../account/principal.js';
import { insertActiveSession } from '../ingest/testing/sessions.js';
import type { Store } from '../store/db.js';
import { openTestStore } from '../store/testing/test-store.js';
import { countingReads, heldReads } from '../store/testing/store-spies.js';
import { sessionFor } from './service.js';

describe('sessionFor', () => {
  let dir: string;
  let store: Store;
  let counted: Store;
  let reads: () => number;
  let reset: () => void;
  let principal: Principal;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-session-for-'));
    store = await openTestStore(dir);
    const account = await store.one<{ id: number }>(`INSERT INTO accounts (name) VALUES ('targets') RETURNING id`);
    principal = { userId: 1, accountId: account!.id, username: 'dana', isRoot: false, claims: [] };
    ({ store: counted, reads, reset } = countingReads(store));
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads a target once for many registrations asking at the same moment', async () => {
    const id = await store.exclusive((q) => insertActiveSession(q, principal.accountId, 'one', Date.now()));
    reset();
    const found = await Promise.all(Array.from({ length: 20 }, () => sessionFor(counted, principal, id)));
    expect(found.every((s) => s.id === id)).toBe(true);
    expect(reads()).toBe(1);
    // Asked again after: read again (a deleted target must be refused from then on).
    await sessionFor(counted, principal, id);
    expect(reads()).toBe(2);
  });

  it('refuses another account and an unknown target, and finds one created while a read of it was under way', async () => {
    await expect(sessionFor(counted, { ...principal, accountId: principal.accountId + 1 }, 1)).rejects.toThrow(/not found/);
    const next = (await store.one<{ id: number }>('SELECT coalesce(max(id), 0) + 1 AS id FROM sessions'))!.id;
    // A read that ran before the target existed and whose answer is held until the target
    // was created and asked for again.
    const { store: held, hasRun, open } = heldReads(store);
    // Begun before the target exists: may well answer "not found", which is right for it.
    const early = sessionFor(held, principal, next).catch(() => undefined);
    await hasRun;
    const id = await store.exclusive((q) => insertActiveSession(q, principal.accountId, 'two', Date.now()));
    expect(id).toBe(next);
    const late = sessionFor(held, principal, id);
    open();
    expect((await late).id).toBe(id);
    await early;
  });
});
