// The domain events the hub pushes (SummaryListChanged, SummaryChanged, CommentChanged) are
// raised by the services after a write, and not when a call is refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssignableClaims } from '../contract/account.js';
import type { Principal } from '../account/principal.js';
import { loadConfig } from '../config.js';
import { DomainEventBus } from '../events.js';
import { Store } from '../store/db.js';
import { createComment, deleteComment, updateComment } from '../comments/service.js';
import { addHost, closeSummary, newSummary, removeFromSummary, renameSummary } from './service.js';
import { openTestStore } from '../store/testing/test-store.js';

let dir: string;
let store: Store;
let sessionId: number;
const events = new DomainEventBus();
const seen: unknown[][] = [];
for (const name of ['SummaryListChanged', 'SummaryChanged', 'CommentChanged'] as const) {
  events.on(name, (...args: unknown[]) => seen.push([name, ...args]));
}
const admin: Principal = { userId: 1, accountId: 3, username: 'admin', isRoot: true, claims: [...AssignableClaims] };
const deps = () => ({ store, events, config: loadConfig({}) });
const drain = () => seen.splice(0);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hopwatch-summary-events-'));
  store = await openTestStore(dir);
  const row = await store.one<{ id: number }>(
    `INSERT INTO sessions (account_id, original_target, target_name, target_ip, state, dynamic_dns_mode, trace_interval_ms, start_time)
     VALUES (3, 'a', 'a', '127.0.0.1', 0, 0, 2500, 0) RETURNING id`,
  );
  sessionId = row!.id;
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('domain events', () => {
  it('summary writes raise SummaryListChanged and SummaryChanged for the account', async () => {
    const s = await newSummary(deps(), admin, { name: 'Events' });
    const id = Number(s.UniqueID);
    expect(drain()).toEqual([['SummaryListChanged', 3]]);
    await addHost(deps(), admin, { host: String(sessionId), summaryId: id });
    expect(drain()).toEqual([['SummaryChanged', 3, id], ['SummaryListChanged', 3]]);
    await removeFromSummary(deps(), admin, { host: String(sessionId), summaryId: id });
    await renameSummary(deps(), admin, { name: 'Renamed', summaryId: id });
    expect(drain()).toHaveLength(4);
    await expect(addHost(deps(), admin, { host: '999', summaryId: id })).rejects.toThrow(/not found/);
    await expect(newSummary(deps(), { ...admin, claims: [] }, { name: 'x' })).rejects.toThrow(/SummaryManagement/);
    expect(drain()).toEqual([]);
    await closeSummary(deps(), admin, { summaryId: id });
    expect(drain()).toEqual([['SummaryChanged', 3, id], ['SummaryListChanged', 3]]);
  });

  it('comment writes raise CommentChanged with the target id and the comment time', async () => {
    const when = Date.parse('2024-01-02T03:04:05Z');
    const c = await createComment(deps(), admin, { SessionWebId: `${sessionId}_h_2`, Text: 'hi', When: new Date(when).toISOString() });
    expect(drain()).toEqual([['CommentChanged', 3, sessionId, when, c.Id]]);
    await updateComment(deps(), admin, { Id: c.Id, Text: 'moved', When: new Date(when + 1000).toISOString() });
    expect(drain()).toEqual([['CommentChanged', 3, sessionId, when + 1000, c.Id]]);
    await expect(createComment(deps(), admin, { SessionWebId: String(sessionId), Text: '' })).rejects.toThrow(/no text entered/);
    expect(drain()).toEqual([]);
    await deleteComment(deps(), admin, { sessionWebId: String(sessionId), commentId: c.Id });
    expect(drain()).toEqual([['CommentChanged', 3, sessionId, when + 1000, c.Id]]);
  });
});

describe('forgetSessions', () => {
  it('drops the memberships and comments of deleted sessions only', async () => {
    const { forgetSessions } = await import('./forget-sessions.js');
    const s = await newSummary(deps(), admin, { name: 'Forget', addhost: String(sessionId) });
    await createComment(deps(), admin, { SessionWebId: String(sessionId), Text: 'bye', When: new Date(0).toISOString() });
    await store.run('INSERT INTO comments (session_id, when_ms, text, updated_at) VALUES (424242, 0, $1, 0)', ['other session']);
    await store.transaction((q) => forgetSessions(q, [sessionId]));
    expect(await store.all('SELECT * FROM summary_members WHERE summary_id = $1', [Number(s.UniqueID)])).toEqual([]);
    expect((await store.all<{ text: string }>('SELECT text FROM comments')).map((c) => c.text)).toEqual(['other session']);
  });
});
