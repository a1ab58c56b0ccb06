// The summaries and agent of a session, asked on every HostUpdated of every live trace: read
// for many sessions at once, and (issue 45 item 7) the sessions about to expire read along with
// the one that expired, so N live traces cost a lookup every few seconds rather than one per
// session a minute.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Store } from '../store/db.js';
import { SummaryMembership } from './event-bridge.js';

/** A store that answers every session as a member of summary 100 + id, agent 7; counts its reads. */
function fakeStore() {
  const reads: number[][] = [];
  const store = {
    read: async <T>(fn: (q: unknown) => Promise<T>) => {
      let ids: number[] = [];
      const q = {
        all: async (sql: string, params: [{ items: number[] }]) => {
          ids = params[0].items.map(Number);
          return sql.includes('summary_members') ? ids.map((id) => ({ sessionId: id, id: 100 + id })) : ids.map((id) => ({ sessionId: id, agentId: 7 }));
        },
      };
      const out = await fn(q);
      reads.push(ids);
      return out;
    },
  } as unknown as Store;
  return { store, reads };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('SummaryMembership', () => {
  it('answers each session, and 300 live traces cost a lookup every few seconds, not one per expiry', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now();
    const { store, reads } = fakeStore();
    const members = new SummaryMembership(store);
    const sessions = Array.from({ length: 300 }, (_, i) => i + 1);
    // Ten minutes of rounds at 1 s: every session's HostUpdated, a tenth of them in each 100 ms.
    for (let ms = 0; ms < 600_000; ms += 100) {
      vi.setSystemTime(start + ms);
      const due = sessions.filter((id) => id % 10 === (ms / 100) % 10);
      const answers = await Promise.all(due.map((id) => members.of(id)));
      answers.forEach((a, i) => expect(a).toMatchObject({ ids: [100 + due[i]], agentId: 7 }));
    }
    // Before: 2,400 lookups (a session's expiry every 45-75 s, each on its own); about 600 s /
    // RefreshAheadMs (15 s) plus the first reads now.
    expect(reads.length).toBeLessThan(80);
  });

  it('reads again after invalidate()', async () => {
    const { store, reads } = fakeStore();
    const members = new SummaryMembership(store);
    await members.of(1);
    await members.of(1);
    expect(reads).toHaveLength(1);
    members.invalidate();
    await members.of(1);
    expect(reads).toHaveLength(2);
  });
});
