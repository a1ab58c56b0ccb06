// followVisitorScopes with a real hub and a stand-in for the LiveShare links: which groups a
// visitor's connection holds after its account's links changed, and when.
import { describe, expect, it } from 'vitest';
import type { LiveShareScope, Principal } from '../account/principal.js';
import { createHub } from '../hub/index.js';
import { commentsGroup, samplesGroup, summaryGroup } from './groups.js';
import type { MainHubEvents } from './methods.js';
import { followVisitorScopes } from './visitor-groups.js';

const scope = (linkId: number, sessionIds: number[]): LiveShareScope => ({
  linkId,
  shareId: `s${linkId}`,
  summaryRef: 'SUM-1',
  summaryId: 1,
  title: 'shared',
  expiresAt: null,
  sessionIds: new Set(sessionIds),
  sidekick: false,
});
const visitorOf = (accountId: number, s: LiveShareScope): Principal => ({ userId: 0, accountId, username: 'LiveShare visitor', isRoot: false, claims: [], liveShare: s });

/** Links whose scope the test sets; current() answers when the test says so. */
function links() {
  const listeners: ((accountId: number) => void)[] = [];
  const shared = new Map<number, number[] | null>();
  const answers: (() => void)[] = [];
  return {
    shared,
    change: (accountId: number) => listeners.forEach((l) => l(accountId)),
    /** Lets every current() asked so far answer. */
    answer: async () => {
      for (const a of answers.splice(0)) a();
      await new Promise((r) => setImmediate(r));
    },
    visitors: {
      onScopeChange: (l: (accountId: number) => void) => {
        listeners.push(l);
        return () => undefined;
      },
      current: (p: Principal) => {
        const ids = shared.get(p.liveShare!.linkId);
        return new Promise<Principal | null>((resolve) => answers.push(() => resolve(ids ? visitorOf(p.accountId, scope(p.liveShare!.linkId, ids)) : null)));
      },
    },
  };
}

function setUp() {
  const hub = createHub<Principal, MainHubEvents>({ methods: {} });
  const l = links();
  followVisitorScopes(hub, l.visitors);
  const connect = (p: Principal, groups: string[]) => {
    const c = hub.negotiate(p, 1, String(Math.random()));
    for (const g of groups) hub.groups.add(c.id, g);
    return c.id;
  };
  return { hub, l, connect };
}

describe('followVisitorScopes', () => {
  it("leaves the per-target groups at once, and joins back only what the link still shares", async () => {
    const { hub, l, connect } = setUp();
    const visitor = connect(visitorOf(7, scope(1, [10, 11])), [samplesGroup(10), commentsGroup(10), samplesGroup(11), summaryGroup(1)]);
    const user = connect({ userId: 3, accountId: 7, username: 'u', isRoot: false, claims: [], loginSession: 'x' }, [samplesGroup(10)]);
    l.shared.set(1, [11]);
    l.change(7);
    // In the same turn: no per-target group left, the summary's kept; users are not touched.
    expect(hub.groups.of(visitor).sort()).toEqual([summaryGroup(1)]);
    expect(hub.groups.of(user)).toEqual([samplesGroup(10)]);
    await l.answer();
    expect(hub.groups.of(visitor).sort()).toEqual([samplesGroup(11), summaryGroup(1)].sort());
  });

  it("leaves another account's visitors alone", async () => {
    const { hub, l, connect } = setUp();
    const other = connect(visitorOf(8, scope(2, [20])), [samplesGroup(20)]);
    l.change(7);
    await l.answer();
    expect(hub.groups.of(other)).toEqual([samplesGroup(20)]);
  });

  it('joins back by the scope read after the last change, and drops a group joined meanwhile that is not shared', async () => {
    const { hub, l, connect } = setUp();
    const visitor = connect(visitorOf(7, scope(1, [10, 11])), [samplesGroup(10), samplesGroup(11)]);
    l.shared.set(1, [10, 11]);
    l.change(7);
    l.shared.set(1, [11]);
    l.change(7);
    hub.groups.add(visitor, commentsGroup(12)); // a registration that read the old scope
    await l.answer();
    expect(hub.groups.of(visitor)).toEqual([samplesGroup(11)]);
  });

  it('keeps no per-target group when the link no longer lets the visitor in', async () => {
    const { hub, l, connect } = setUp();
    const visitor = connect(visitorOf(7, scope(1, [10])), [samplesGroup(10), summaryGroup(1)]);
    l.shared.set(1, null);
    l.change(7);
    await l.answer();
    expect(hub.groups.of(visitor)).toEqual([summaryGroup(1)]);
  });
});
