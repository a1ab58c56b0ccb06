// Issue 40 item 2: the outage periods a DataPointBuckets answer lists, recorded on a real
// store (migration 20): the server down between a run's last alive mark and the next start,
// a remote agent's link going away and coming back, and agents offline from a start until
// their hello.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../store/db.js';
import { OutageReason } from '../contract/data.js';
import { recordAgentConnection, recordServerStart, ServerAliveMarkMs } from './outage-record.js';
import { outagesOf } from './outages.js';
import { openTestStore } from '../store/testing/test-store.js';

const at = (s: number) => 1_800_000_000_000 + s * 1000;
const iso = (s: number) => new Date(at(s)).toISOString();

describe('outage periods', () => {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-outages-'));
    store = await openTestStore(dir);
    await store.exclusive((q) =>
      q.run(`INSERT INTO agents (id, account_id, unique_id, name, created_at) VALUES (7, 1, 'u7', 'Branch office', 0), (8, 1, 'u8', 'Attic', 0)`),
    );
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const outages = (agentId: number, from: number, to: number) => store.read((q) => outagesOf(q, agentId, at(from), at(to)));

  it('records agents offline from a start until their hello, and a link that goes away and comes back', async () => {
    await store.exclusive((q) => recordServerStart(q, at(0)));
    await store.exclusive((q) => recordAgentConnection(q, 7, true, at(2)));
    await store.exclusive((q) => recordAgentConnection(q, 7, false, at(100)));
    await store.exclusive((q) => recordAgentConnection(q, 7, true, at(162)));
    expect(await outages(7, 50, 300)).toEqual([{ Reason: OutageReason.AgentOffline, Start: iso(100), End: iso(162) }]);
    // Agent 8 never said hello: offline since the start, still.
    expect(await outages(8, 50, 300)).toEqual([{ Reason: OutageReason.AgentOffline, Start: iso(0), End: null }]);
    // Outside the range: none.
    expect(await outages(7, 170, 300)).toEqual([]);
  });

  it("records the server down from the last run's alive mark to the next start, for every trace", async () => {
    await store.exclusive((q) => q.run('UPDATE server_runs SET alive_at = $1', [at(400)]));
    await store.exclusive((q) => recordServerStart(q, at(1000)));
    const down = { Reason: OutageReason.ServerDown, Start: iso(400), End: iso(1000) };
    // The Local Machine (-1) has only the server's outages; agent 8's open period ended at the mark.
    expect(await outages(-1, 300, 2000)).toEqual([down]);
    expect(await outages(8, 300, 2000)).toEqual([
      { Reason: OutageReason.AgentOffline, Start: iso(0), End: iso(400) },
      down,
      { Reason: OutageReason.AgentOffline, Start: iso(1000), End: null },
    ]);
  });

  it('records no server outage when another run marked itself alive moments ago (a replica, a quick restart)', async () => {
    const before = (await outages(-1, 0, 1e6)).length;
    await store.exclusive((q) => recordServerStart(q, at(1000) + ServerAliveMarkMs));
    expect(await outages(-1, 0, 1e6)).toHaveLength(before);
  });

  it("leaves the agents as recorded when another run is alive: a replica's start does not mark the links it holds offline", async () => {
    // Agent 7 linked to the running replica at 1010 s; a second replica starts at 1040 s.
    await store.exclusive((q) => recordAgentConnection(q, 7, true, at(1010)));
    await store.exclusive((q) => q.run('UPDATE server_runs SET alive_at = $1 WHERE started_at = $2', [at(1030), at(1000) + ServerAliveMarkMs]));
    await store.exclusive((q) => recordServerStart(q, at(1040)));
    expect(await outages(7, 1005, 2000)).toEqual([{ Reason: OutageReason.AgentOffline, Start: iso(1000), End: iso(1010) }]);
    // Agent 8, offline since the last down, stays so (not ended at the other run's mark).
    expect(await outages(8, 1005, 2000)).toEqual([{ Reason: OutageReason.AgentOffline, Start: iso(1000), End: null }]);
  });
});
