// recordTraceTarget and the history fallbacks, on a real store in a temporary directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../account/principal.js';
import { Store } from '../store/db.js';
import { setKvp } from './service.js';
import { getDefaultTraceHistory, getTraceHistory, recordTraceTarget, ServerDefaultTraceHistory } from './trace-history.js';
import { openTestStore } from '../store/testing/test-store.js';

let dir: string;
let store: Store;
const user = (userId: number, accountId = 1): Principal => ({ userId, accountId, username: `u${userId}`, isRoot: false, claims: ['UserManagement'] });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hopwatch-trace-history-'));
  store = await openTestStore(dir);
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('recordTraceTarget', () => {
  it('puts the target first on top of the default the user was shown', async () => {
    const ann = user(1);
    expect(await getTraceHistory(store, ann)).toEqual(ServerDefaultTraceHistory);
    expect(await recordTraceTarget(store, ann, ' 10.1.2.3 ')).toEqual(['10.1.2.3', ...ServerDefaultTraceHistory]);
    expect(await getTraceHistory(store, ann)).toEqual(['10.1.2.3', ...ServerDefaultTraceHistory]);
  });

  it('moves a target seen before to the front, ignoring case, without duplicates', async () => {
    const ann = user(1);
    const again = await recordTraceTarget(store, ann, 'GOOGLE.com');
    expect(again[0]).toBe('GOOGLE.com');
    expect(again.filter((t) => t.toLowerCase() === 'google.com')).toHaveLength(1);
    expect(again).toHaveLength(ServerDefaultTraceHistory.length + 1);
  });

  it('keeps at most 50 entries, newest first, and ignores blank names', async () => {
    const bob = user(2);
    for (let i = 0; i < 60; i++) await recordTraceTarget(store, bob, `host-${i}.example`);
    const list = await getTraceHistory(store, bob);
    expect(list).toHaveLength(50);
    expect(list[0]).toBe('host-59.example');
    expect(list[49]).toBe('host-10.example');
    expect(await recordTraceTarget(store, bob, '   ')).toEqual(list);
    expect(await recordTraceTarget(store, bob, 'x'.repeat(300))).toEqual(list);
  });

  it('starts from the account default when there is one, per account', async () => {
    await setKvp({ store }, user(3, 7), { type: 'Account', keyName: 'TraceTargetHistory', value: '["core-router.lan"]' });
    expect(await getDefaultTraceHistory(store, user(4, 7))).toEqual(['core-router.lan']);
    expect(await getDefaultTraceHistory(store, user(5, 8))).toEqual(ServerDefaultTraceHistory);
    expect(await recordTraceTarget(store, user(4, 7), 'printer.lan')).toEqual(['printer.lan', 'core-router.lan']);
    // Other users keep their own histories.
    expect(await getTraceHistory(store, user(3, 7))).toEqual(['core-router.lan']);
  });
});
