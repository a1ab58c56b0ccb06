// The Local Machine in a cluster (issue 43 item 2, docs/scale.md "Once-only work"): the built-in
// agent (ID -1) is the cluster's, not each replica's, so its traces run on the leader only,
// and move to the next leader when the leader goes (their ingest state is taken over from the
// store like an agent's link). Replicas that are not the leader leave Local Machine starts,
// pauses, interval changes and closes to it: they are in the store already, and a NOTIFY wakes
// the leader, which makes what runs here match the store (reconcile); it also looks every few
// seconds, in case a notification was missed while its connection was being replaced.
import type { FastifyBaseLogger } from 'fastify';
import { LocalMachineAgentId } from '../contract/sessions.js';
import type { IngestPipeline } from '../ingest/pipeline.js';
import type { Store } from '../store/db.js';
import { activeSessionsOfAgent, type SessionRecord } from '../targets/repository.js';
import type { TraceRunner } from '../targets/trace-runner.js';
import type { Leadership } from './leadership.js';

export const LocalMachineChannel = 'hopwatch_local_machine';
/** The leader compares what it runs with the store this often, besides each notification (ms). */
export const ReconcileMs = 5000;

export interface LocalMachineDeps {
  store: Store;
  runner: TraceRunner;
  ingest: IngestPipeline;
  leadership: Leadership;
  log: FastifyBaseLogger;
}

/** What a running trace was started with: a change in the store is applied to it. */
interface Applied {
  intervalMs: number;
  finalHopOnly: boolean;
  configurationId: number;
  target: string;
}

const appliedOf = (s: SessionRecord): Applied => ({ intervalMs: s.traceIntervalMs, finalHopOnly: s.finalHopOnly, configurationId: s.configurationId, target: `${s.targetName}|${s.targetIp}|${s.dynamicDnsMode}` });

export class LocalMachineLeader {
  private readonly applied = new Map<number, Applied>();
  private turn: Promise<void> = Promise.resolve();
  private again = false;
  private queued = false;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private unfollow: (() => void) | undefined;

  constructor(private readonly deps: LocalMachineDeps) {}

  /** Places the Local Machine on the leader and follows leadership from now on. */
  start(): void {
    const { leadership, runner } = this.deps;
    runner.agent.placeLocalMachine({ here: () => leadership.isLeader(), changed: () => this.notify() });
    leadership.listen(LocalMachineChannel, () => this.reconcileSoon());
    this.unfollow = leadership.onChange((leader) => (leader ? this.reconcileSoon() : this.stepDown()));
    this.timer = setInterval(() => this.reconcileSoon(), ReconcileMs);
    this.timer.unref();
    this.reconcileSoon();
  }

  /** Tells the leader (wherever it is) that a Local Machine session changed in the store. */
  private notify(): void {
    this.deps.store.run('SELECT pg_notify($1, $2)', [LocalMachineChannel, '']).catch((err: Error) => this.deps.log.warn({ msg: err.message }, 'Local Machine: could not notify the leader (it looks again within seconds)'));
  }

  private reconcileSoon(): void {
    if (this.closed) return;
    if (this.queued) return;
    this.queued = true;
    this.turn = this.turn
      .then(() => {
        this.queued = false;
        return this.reconcile();
      })
      .catch((err: Error) => this.deps.log.error({ msg: err.message }, 'Local Machine: reconcile failed (tried again within seconds)'));
  }

  /** Makes the Local Machine traces running here those the store has active (leader only). */
  private async reconcile(): Promise<void> {
    const { store, runner, ingest, leadership } = this.deps;
    if (this.closed || !leadership.isLeader()) return;
    const active = await store.read((q) => activeSessionsOfAgent(q, LocalMachineAgentId));
    if (!(await leadership.stillLeader())) return;
    const want = new Map(active.map((s) => [s.id, s]));
    for (const id of [...this.applied.keys()]) {
      if (want.has(id)) continue;
      // Paused or closed on another replica: it stops here (the replica that closed it rolled it up).
      this.applied.delete(id);
      await runner.agent.local.stop(id);
      await ingest.release([id]);
    }
    // New here (a trace that failed to start is not started again every few seconds: its error shows on the target).
    const fresh = active.filter((s) => !this.applied.has(s.id) && !runner.agent.local.has(s.id));
    if (fresh.length) await ingest.takeOver(fresh.map((s) => s.id));
    for (const s of active) {
      const now = appliedOf(s);
      const before = this.applied.get(s.id);
      this.applied.set(s.id, now);
      if (!before) {
        if (!runner.agent.local.has(s.id)) await runner.run(s);
        continue;
      }
      if (before.configurationId !== now.configurationId || before.target !== now.target) {
        await runner.run(s);
        continue;
      }
      if (before.intervalMs !== now.intervalMs) runner.agent.local.setInterval(s.id, now.intervalMs);
      if (before.finalHopOnly !== now.finalHopOnly) runner.agent.local.setFinalHopOnly(s.id, now.finalHopOnly);
    }
  }

  /** No longer the leader: the Local Machine's traces stop here, their closed rows written for the next leader. */
  private stepDown(): void {
    if (this.closed) return;
    const ids = [...this.applied.keys()];
    this.applied.clear();
    this.turn = this.turn
      .then(async () => {
        await this.deps.runner.agent.local.stopAll();
        await this.deps.ingest.release(ids);
        if (ids.length) this.deps.log.warn({ count: ids.length }, 'Local Machine: traces stopped here (another replica leads them now)');
      })
      .catch((err: Error) => this.deps.log.error({ msg: err.message }, 'Local Machine: stepping down failed'));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unfollow?.();
    if (this.timer) clearInterval(this.timer);
    await this.turn;
  }
}
