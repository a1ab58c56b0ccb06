// A LiveShare visitor's per-target groups (samples, comments) follow what its link shares
// now, not what it shared when the visitor registered: a target taken out of the shared
// summary, or an agent's target closed, stops reaching the open visitor at once.
//
// When some link of an account may share something else (LiveShareVisitors.onScopeChange,
// called while the change's event is emitted, after the change was written), every visitor
// connection of that account leaves its per-target groups at once, in the same turn: no
// event of a target no longer shared can be sent to it after the change. Then the groups of
// the targets its link still shares are joined again, once the link's scope has been read
// again; what the connection holds then is checked against that scope too (a registration
// that checked the scope as it was before the change may have joined in between). A visitor
// may miss an event of a still-shared target meanwhile (a HostUpdated comes again with the
// next round). Left open: a registration whose check read the old scope and that joins
// after the new scope was read keeps its group until the next change or its next call.
import type { Principal } from '../account/principal.js';
import type { Hub } from '../hub/index.js';
import type { LiveShareVisitors } from '../liveshare/visitors.js';
import { sessionOfGroup } from './groups.js';
import type { MainHubEvents } from './methods.js';

interface Pending {
  /** Per-target groups left and not joined again yet. */
  groups: Set<string>;
  /** Bumped by each change: only the read started after the last change joins again. */
  generation: number;
}

export function followVisitorScopes(hub: Hub<Principal, MainHubEvents>, visitors: Pick<LiveShareVisitors, 'onScopeChange' | 'current'>): () => void {
  const pending = new Map<string, Pending>();

  const rejoin = async (connectionId: string, principal: Principal, entry: Pending, generation: number) => {
    let now: Principal | null = null;
    try {
      now = await visitors.current(principal);
    } catch {
      // The store is closing: nothing is joined again.
    }
    if (entry.generation !== generation || pending.get(connectionId) !== entry) return;
    pending.delete(connectionId);
    // A link that no longer lets the visitor in keeps no per-target group (its next call
    // closes the connection).
    const shared = (group: string) => {
      const sessionId = sessionOfGroup(group);
      return sessionId !== undefined && now?.liveShare !== undefined && now.liveShare.sessionIds.has(sessionId);
    };
    // A registration that checked the scope as it was before the change may have joined
    // since the groups were left: what is held now is checked too.
    for (const group of hub.groups.of(connectionId)) {
      if (sessionOfGroup(group) !== undefined && !shared(group)) hub.groups.remove(connectionId, group);
    }
    for (const group of entry.groups) if (shared(group)) hub.groups.add(connectionId, group);
  };

  const changed = (accountId: number) => {
    for (const { connectionId, principal } of hub.principals()) {
      if (!principal.liveShare || principal.accountId !== accountId) continue;
      const held = hub.groups.of(connectionId).filter((g) => sessionOfGroup(g) !== undefined);
      const entry = pending.get(connectionId) ?? { groups: new Set<string>(), generation: 0 };
      if (held.length === 0 && entry.groups.size === 0) continue;
      for (const group of held) {
        hub.groups.remove(connectionId, group);
        entry.groups.add(group);
      }
      entry.generation++;
      pending.set(connectionId, entry);
      void rejoin(connectionId, principal, entry, entry.generation);
    }
  };
  return visitors.onScopeChange(changed);
}
