// Which agents are online anywhere in the cluster, for the agent-offline decisions the leader
// makes (issue 43 item 2, docs/scale.md "Once-only work"). Each replica holds a shared advisory
// lock per agent linked to it, on its leader lease's connection; PostgreSQL drops the locks of
// a replica that dies with its connection. The leader reads the holders (pg_locks) every
// PollMs and reports each agent that came or went to the agent-offline timers, as the local
// link's events do. No table and no heartbeat writes: the locks are the presence.
import type { Queryable } from '../store/db.js';
import type { PgLeadership } from './leadership.js';

/** The advisory lock space of agent links ('Hopa'). */
export const AgentLinkLockSpace = 0x486f7061;
/** How often the leader reads which agents are linked anywhere (ms). */
export const PresencePollMs = 2000;

export interface ClusterPresenceDeps {
  leadership: PgLeadership;
  read: <T>(fn: (q: Queryable) => Promise<T>) => Promise<T>;
  /** An agent came online, or went offline, somewhere in the cluster (leader only). */
  changed: (agentId: number, online: boolean) => void;
  /** The first read after becoming the leader is in (the agent-offline decisions may start). */
  firstRead: () => void;
  warn: (msg: string) => void;
}

export class ClusterPresence {
  private online: Set<number> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;

  constructor(private readonly deps: ClusterPresenceDeps) {}

  /** An agent's link came to this replica (its hello). */
  linked(agentId: number): void {
    this.deps.leadership.holdShared(AgentLinkLockSpace, agentId);
  }

  /** An agent's link to this replica closed. */
  unlinked(agentId: number): void {
    this.deps.leadership.releaseShared(AgentLinkLockSpace, agentId);
  }

  /** The leader has read who is linked (before that it decides no agent offline). */
  get ready(): boolean {
    return this.online !== undefined;
  }

  /** Linked to some replica, as last read (the leader reads; others answer false and decide nothing). */
  isOnline(agentId: number): boolean {
    return this.online?.has(agentId) ?? false;
  }

  start(): void {
    this.timer = setInterval(() => void this.poll(), PresencePollMs);
    this.timer.unref();
    void this.poll();
  }

  /** Reads the holders now (the leader only) and reports what changed since the last read; a read under way is shared. */
  poll(): Promise<void> {
    this.polling ??= this.read().finally(() => (this.polling = undefined));
    return this.polling;
  }

  private async read(): Promise<void> {
    if (!this.deps.leadership.isLeader()) {
      this.online = undefined;
      return;
    }
    try {
      const rows = await this.deps.read((q) =>
        q.all<{ id: number }>(`SELECT DISTINCT objid::bigint AS id FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND classid::bigint = $1`, [AgentLinkLockSpace]),
      );
      const now = new Set(rows.map((r) => Number(r.id)));
      const before = this.online;
      this.online = now;
      // The first read after becoming the leader: only what is online (the rest is offline since this replica started, as at a start).
      for (const id of now) if (!before?.has(id)) this.deps.changed(id, true);
      if (before) for (const id of before) if (!now.has(id)) this.deps.changed(id, false);
      if (!before) this.deps.firstRead();
    } catch (err) {
      this.deps.warn(`cluster presence: could not read the agents' links (${(err as Error).message})`);
    }
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
