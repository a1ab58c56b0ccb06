// The "agent offline for more than T" condition (docs/alerts.md): the agent link says when a
// remote agent comes and goes (AgentConnection); this keeps when each went away and decides
// the agentOffline alerts on each change and with ONE timer for all of them, set to the
// earliest moment a threshold is crossed (at most a minute away, for holds / notHolds).
import { LocalMachineAgentId } from '../contract/sessions.js';
import type { Store } from '../store/db.js';
import type { AlertEvaluator, Happening } from './evaluator.js';
import type { StateRecord } from './repository.js';

/** The longest the check sleeps while agentOffline alerts exist (their holds / notHolds repeats). */
export const AgentCheckPeriodMs = 60_000;

export interface AgentPresenceDeps {
  store: Store;
  evaluator: AlertEvaluator;
  /** Connected and introduced (AgentLinks.isOnline). */
  isOnline: (agentId: number) => boolean;
  record: (happenings: Happening[], states: StateRecord[]) => void;
  /** Several replicas: only the leader decides (undefined: one process, always). */
  leads?: () => boolean;
  /** Several replicas: reads who is linked anywhere again, before a timed decision (server/cluster/presence.ts). */
  refresh?: () => Promise<void>;
}

export class AgentPresence {
  /** When each agent's link went away (agents not here that are offline: since the server started). */
  private readonly wentAway = new Map<number, number>();
  /** Agents last reported online (a second report of the same going away keeps the first time). */
  private readonly seenOnline = new Set<number>();
  /** The agent of each watched target. */
  private readonly agentOf = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** The server's own downtime is not the agents' fault: they get T from its start to reconnect. */
  private readonly startedAt = Date.now();

  constructor(private readonly deps: AgentPresenceDeps) {}

  /** When the target's agent went away, undefined while it is connected (or it is the Local Machine). */
  readonly offlineSince = (sessionId: number): number | undefined => {
    const agent = this.agentOf.get(sessionId);
    if (agent === undefined || agent === LocalMachineAgentId || this.deps.isOnline(agent)) return undefined;
    return this.wentAway.get(agent) ?? this.startedAt;
  };

  /** Learns the agents of the targets the agentOffline alerts watch (after alerts change). */
  async learnTargets(): Promise<void> {
    const unknown = this.deps.evaluator.agentWatchedTargets().filter((s) => !this.agentOf.has(s));
    if (!unknown.length) return;
    const rows = await this.deps.store.read((q) => q.all<{ id: number; sentinel_id: number }>(`SELECT id, sentinel_id FROM sessions WHERE id IN (${unknown.map(Number).join(',')})`));
    for (const r of rows) this.agentOf.set(r.id, r.sentinel_id);
  }

  /** An agent's link came up or went away: decide its targets now. */
  changed(agentId: number, online: boolean): void {
    const now = Date.now();
    if (online) this.wentAway.delete(agentId);
    // Heard twice (its link's replica, then the cluster's presence): it went away the first time.
    else if (!this.wentAway.has(agentId) || this.seenOnline.has(agentId)) this.wentAway.set(agentId, now);
    if (online) this.seenOnline.add(agentId);
    else this.seenOnline.delete(agentId);
    const mine = new Set<number>();
    for (const [s, a] of this.agentOf) if (a === agentId) mine.add(s);
    if (mine.size) this.decide(now, mine);
    this.schedule();
  }

  /** Decides every agentOffline alert now and sets the timer again (with several replicas, once it read again who is linked). */
  check(): void {
    if (!this.deps.refresh) return this.checkNow();
    void this.deps.refresh().then(() => this.checkNow());
  }

  private checkNow(): void {
    if (this.closed) return;
    this.decide(Date.now());
    this.schedule();
  }

  private decide(now: number, only?: Set<number>): void {
    if (this.deps.leads && !this.deps.leads()) return;
    const { happenings, states } = this.deps.evaluator.checkAgents(now, this.offlineSince, only);
    if (happenings.length || states.length) this.deps.record(happenings, states);
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.closed || !this.deps.evaluator.watchesAgents) return;
    const now = Date.now();
    const due = Math.min(now + AgentCheckPeriodMs, this.deps.evaluator.nextAgentDue(this.offlineSince) ?? Infinity);
    this.timer = setTimeout(() => this.check(), Math.max(0, due - now) + 1);
    this.timer.unref();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }
}
