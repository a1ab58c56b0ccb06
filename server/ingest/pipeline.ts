// The ingest pipeline: rounds -> columnar batches -> validation and WASM rollups (the Piscina
// worker for large batches) -> one DuckDB transaction per flush (raw samples, sample tallies,
// hosts), then, in groups, the closed rollup rows and their marks in a transaction of their
// own. A round's promise resolves only after its samples committed, so an acknowledged sample
// is durable; a kill -9 loses at most the batch being flushed (rollup rows not written yet
// are rolled up again from the samples at start).
import { Piscina } from 'piscina';
import type { DomainEventBus } from '../events.js';
import { list } from '../store/dialect.js';
import { inTransaction, type Queryable, type Store } from '../store/db.js';
import { inDayPartitions, prepareRollupWrite, prepareSampleWrite, writeRollupRows, writeSamples } from '../store/sample-tables.js';
import type { RollupSet } from '../rollups/append.js';
import { RollupResolutionsMs } from '../rollups/levels.js';
import { concatRollupRows, sliceRollupRows, type RollupRows } from '../rollups/rows.js';
import { SampleBatchBuilder, type SampleBatch } from './sample-columns.js';
import { SessionRollupState, type RawPending } from './session-rollup-state.js';
import { prepareFlush, type FlushResult, type FlushTask, type SessionCarry } from './worker.js';
import { loadRollupState } from './state-loader.js';
import { appendTallies, foldTallies } from './sample-tallies.js';
import { RecentData, type RecentView } from '../rollups/recent-data.js';
import { HopHostTally, type HopHostRow } from '../hop-details/tally.js';
import { appendHopHosts } from '../hop-details/repository.js';
import type { HopSeen } from '../hop-details/details-json.js';

export interface HostSeen {
  sessionId: number;
  hop: number;
  address: string;
  dnsName: string;
}

export interface IngestOptions {
  flushIntervalMs?: number;
  /** Flush at once when this many samples wait. */
  maxBatch?: number;
  /**
   * How many open sessions keep their recent data in memory (~7 MB each at 30 hops and
   * 2.5 s); the others are answered from the store, exactly but slower.
   */
  memorySessions?: number;
  /** Closed rollup rows are written once this many wait (0: with every flush)... */
  rollupWriteRows?: number;
  /** ...or once the oldest has waited this long (ms), or when a session finishes or ingest closes. */
  rollupWriteAgeMs?: number;
  /** Batches of up to this many samples are prepared on the calling thread, larger ones by the worker. */
  inlineSamples?: number;
  /** Hears a failed write of the rollup rows or fold of the tallies (kept, and tried again with a later flush). */
  onRollupWriteError?: (err: Error) => void;
}

/**
 * Up to this many samples a flush's preparation costs a few milliseconds on the main thread
 * (a second of 200 agents' rounds is 30,000); larger batches (bulk imports, backfills) go to
 * the worker so that the main thread keeps answering.
 */
export const DefaultInlineSamples = 20_000;

export const DefaultMemorySessions = 100;
/**
 * A session read within this long is watched (a console's target window reads its rows on
 * every HostUpdated): when every memory window is taken, a watched session gets the window of
 * the session read longest ago, if that one is not watched (issue 45 item 7).
 */
export const WatchedMs = 5 * 60_000;
/**
 * Rollup rows are derived data: the raw samples they come from are committed with every
 * flush, and at start the rows after the stored marks are rolled up again from them. So they
 * go to the store in groups of about one DuckDB row group (122,880 rows), not with every
 * flush: written with every flush, the rows of a bulk load cost about a third more DuckDB
 * time than the samples alone, the table's last row group being compressed again at each
 * commit; in groups, about a sixth (docs/store.md).
 */
export const DefaultRollupWriteRows = 122_880;
/** A live trickle of closed minutes is written at least this often. */
export const DefaultRollupWriteAgeMs = 60_000;

/** One session's part of a flush. */
interface Plan {
  sessionId: number;
  state: SessionRollupState;
  count: number;
  first: number;
  last: number;
  raw: RawPending;
  /** This flush's samples of the session (for the recent data). */
  add: RawPending;
  /** closedUntil before this flush: where a new session's recent data starts. */
  coverFrom: number[];
  rows: RollupRows[];
  closedUntil: number[];
  pendingRows: RollupRows[];
}

interface Waiter {
  resolve: () => void;
  reject: (e: Error) => void;
}

export class IngestPipeline {
  private readonly pool: Piscina;
  private builder = new SampleBatchBuilder();
  private hostsSeen = new Map<string, HostSeen>();
  /**
   * Per session and hop, the address and reverse name the hosts table holds (as this pipeline
   * wrote them): a hop that answers from the same address again is not written again. An
   * upsert per hop and flush was most of the server's CPU for a live trace (about 2 ms of
   * DuckDB parse, bind and MERGE each: 150 a second for 5 targets of 30 hops).
   */
  private readonly hostsStored = new Map<number, Map<number, { address: string; dnsName: string }>>();
  /** Answers per hop address and minute, with their details (server/hop-details). */
  private readonly hopHosts = new HopHostTally();
  private waiters: Waiter[] = [];
  private states = new Map<number, SessionRollupState>();
  private accountOf = new Map<number, number>();
  /** Per session, how many flushes committed samples of it (moved its sample times). */
  private commitCount = new Map<number, number>();
  private flushing: Promise<void> = Promise.resolve();
  /** A flush is chained and has not started: later requests ride on it (group commit). */
  private flushQueued = false;
  private timer: NodeJS.Timeout | undefined;
  /** Flushes once the oldest unwritten rollup row has waited rollupWriteAgeMs. */
  private rollupTimer: NodeJS.Timeout | undefined;
  /** Closed rollup rows of all sessions not written yet, and since when (Date.now()). */
  private unwrittenRows = 0;
  private unwrittenSince = NaN;
  /** The write of closed rollup rows in progress, if one is (one at a time). */
  private rollupWrite: Promise<void> | undefined;
  /** close() is flushing: everything is written. */
  private closing = false;
  private closed = false;
  /** Why ingest is paused (the data volume is full, server/store/volume-watch.ts); undefined: it runs. */
  private paused: string | undefined;
  private readonly flushIntervalMs: number;
  private readonly maxBatch: number;
  private readonly memorySessions: number;
  private readonly rollupWriteRows: number;
  private readonly rollupWriteAgeMs: number;
  private readonly inlineSamples: number;
  private readonly onRollupWriteError: ((err: Error) => void) | undefined;
  /** Samples dropped by validation since start. */
  dropped = 0;
  /** Called with each session's samples once their flush committed (alerts evaluate there). */
  private readonly committedListeners: ((sessionId: number, samples: RawPending) => void)[] = [];
  /**
   * PostgreSQL, where several replicas share the store (issue 43 item 3, docs/scale.md "Ingest
   * takeover"): a session's state is held only by the replica ingesting it (the one holding its
   * agent's link, or the leader for the Local Machine), loaded from the store when its samples
   * first reach this replica, given up when its link leaves. State loaded at start would be
   * stale by the time a session came here: its watermark would take rounds again that another
   * replica stored, its marks would roll up periods again that another replica wrote.
   */
  private readonly shared: boolean;
  /** Hear each takeover before the session's next samples are taken (alerts load the session's states). */
  private readonly takeOverListeners: ((sessionIds: number[]) => Promise<void>)[] = [];

  constructor(
    private readonly store: Store,
    private readonly events: DomainEventBus,
    opts: IngestOptions = {},
  ) {
    // Group commit: a flush takes whatever arrived while the previous one ran, so a short
    // wait only gathers rounds that complete together; under load batches grow by themselves.
    this.flushIntervalMs = opts.flushIntervalMs ?? 5;
    this.maxBatch = opts.maxBatch ?? 50_000;
    this.memorySessions = opts.memorySessions ?? DefaultMemorySessions;
    this.rollupWriteRows = opts.rollupWriteRows ?? DefaultRollupWriteRows;
    this.rollupWriteAgeMs = opts.rollupWriteAgeMs ?? DefaultRollupWriteAgeMs;
    this.inlineSamples = opts.inlineSamples ?? DefaultInlineSamples;
    this.onRollupWriteError = opts.onRollupWriteError;
    this.shared = store.dialect === 'postgres';
    this.pool = new Piscina({
      filename: new URL('./worker.js', import.meta.url).href,
      minThreads: 1,
      maxThreads: 1,
      idleTimeout: 60_000,
    });
  }

  /** Open sessions whose recent data is kept in memory. */
  private sessionsInMemory(): number {
    let n = 0;
    for (const s of this.states.values()) if (s.recent) n++;
    return n;
  }

  /** Rebuilds the rollup state of open sessions from the store. */
  async init(): Promise<void> {
    // Tallies left by a stop without close (kill -9) go into the sessions rows first.
    await this.store.transaction((q) => foldTallies(q));
    // Shared: nothing is held until a session's samples come here (loadStates).
    if (this.shared) return;
    const loaded = await this.store.exclusive((q) => loadRollupState(q, this.memorySessions));
    for (const [sessionId, { accountId, state }] of loaded) {
      this.states.set(sessionId, state);
      this.accountOf.set(sessionId, accountId);
    }
  }

  /** Shared: loads the state of sessions this replica does not hold from the store (last round, marks, open periods). */
  private async loadStates(sessionIds: Iterable<number>): Promise<void> {
    const ids = [...sessionIds].filter((id) => !this.states.has(id));
    if (!ids.length) return;
    const room = Math.max(0, this.memorySessions - this.sessionsInMemory());
    const loaded = await this.store.read((q) => loadRollupState(q, room, ids));
    for (const id of ids) {
      const l = loaded.get(id);
      this.states.set(id, l?.state ?? new SessionRollupState());
      if (l) this.accountOf.set(id, l.accountId);
    }
  }

  /** Runs fn between flushes (never during one). */
  private between<T>(fn: () => Promise<T>): Promise<T> {
    const done = this.flushing.then(fn);
    this.flushing = done.then(
      () => undefined,
      () => undefined,
    );
    return done;
  }

  /** Forgets what this replica holds of the sessions (their unwritten closed rows are derived data: the next holder rolls them up again from the stored samples). */
  private drop(sessionIds: Iterable<number>): void {
    for (const id of sessionIds) {
      const s = this.states.get(id);
      if (!s) continue;
      for (const parts of s.unwritten) for (const r of parts) this.unwrittenRows -= r.time.length;
      this.states.delete(id);
      this.hostsStored.delete(id);
    }
    if (this.unwrittenRows <= 0) {
      this.unwrittenRows = 0;
      this.unwrittenSince = NaN;
    }
  }

  /** Hears each takeover (awaited before the session's samples are taken). */
  onTakeOver(listener: (sessionIds: number[]) => Promise<void>): void {
    this.takeOverListeners.push(listener);
  }

  /**
   * Shared: these sessions' samples come to this replica from now on (their agent's link came
   * here, or this replica became the leader for the Local Machine). What it held of them may be
   * stale, so it is dropped: their state is loaded from the store with their next samples.
   * Nothing on DuckDB (one process holds everything).
   */
  async takeOver(sessionIds: number[]): Promise<void> {
    if (!this.shared || !sessionIds.length) return;
    // Loaded now, not with the first samples: the console's reads of them come from memory at once.
    await this.between(async () => {
      this.drop(sessionIds);
      await this.loadStates(sessionIds);
    });
    for (const l of this.takeOverListeners) await l(sessionIds);
  }

  /**
   * Shared: these sessions' samples no longer come here (their link left, or leadership went):
   * their closed rows are written and their state is dropped, for the replica that takes them.
   */
  async release(sessionIds: number[]): Promise<void> {
    if (!this.shared || !sessionIds.length) return;
    await this.between(async () => {
      try {
        await this.rollupWrite;
        await this.writeRollups();
      } catch (err) {
        this.onRollupWriteError?.(err as Error);
      }
      this.drop(sessionIds);
    });
  }

  /** Hears every flush's committed samples, per session, in the flush's order (synchronously: copy what you keep). */
  onCommitted(listener: (sessionId: number, samples: RawPending) => void): void {
    this.committedListeners.push(listener);
  }

  /** Registers a session so its samples can be attributed (account, rollup grid). */
  openSession(sessionId: number, accountId: number): void {
    this.accountOf.set(sessionId, accountId);
    // Shared: a new state here could start a grid the store already has (loadStates instead).
    if (!this.shared && !this.states.has(sessionId)) this.states.set(sessionId, new SessionRollupState());
  }

  /** Rolls everything of the session up at the next flush and forgets it afterwards. */
  async finishSession(sessionId: number): Promise<void> {
    // Shared: finished where it is closed, from the store's state if this replica does not hold it.
    if (this.shared && !this.states.has(sessionId)) await this.between(() => this.loadStates([sessionId]));
    const s = this.states.get(sessionId);
    if (s) s.finishing = true;
    return this.flushSoon(true);
  }

  /**
   * The committed recent data of an open session, for queries (undefined: read the store).
   * Asking marks the session watched: it gets a memory window at the next flush (windowFor).
   */
  recent(sessionId: number, now = Date.now()): RecentView | undefined {
    const s = this.states.get(sessionId);
    if (!s) return undefined;
    s.readAt = now;
    return s.recent;
  }

  /**
   * Whether s (no window yet) may have one now: while fewer than memorySessions have one, or,
   * when all are taken and s is watched, by taking the window of the session read longest ago
   * if that one is not watched. So the windows go to what consoles read, not to the sessions
   * that happened to start first, and memory stays bounded by memorySessions. A session that
   * loses its window is read from the store again, exactly (its closed rows not written yet
   * are rolled up from the stored raw samples, as for any session without one).
   */
  private windowFor(s: SessionRollupState, inMemory: number, now: number): boolean {
    if (inMemory < this.memorySessions) return true;
    if (now - s.readAt > WatchedMs) return false;
    let victim: SessionRollupState | undefined;
    for (const o of this.states.values()) {
      if (o.recent && now - o.readAt > WatchedMs && (!victim || o.readAt < victim.readAt)) victim = o;
    }
    if (!victim) return false;
    victim.recent = undefined;
    return true;
  }

  /**
   * The newest committed sample time of a session ingest holds open (-Infinity: none yet; the
   * time of one loaded at start is the store's, in whole ms), or undefined when it holds no
   * state for it: then ask the store.
   */
  committedUntil(sessionId: number): number | undefined {
    return this.states.get(sessionId)?.maxTime;
  }

  /** Changes whenever a flush commits samples of the session (cached session times are stale then). */
  commits(sessionId: number): number {
    return this.commitCount.get(sessionId) ?? 0;
  }

  /** Adds one sample; the promise resolves when it is committed. */
  add(sessionId: number, time: number, hop: number, latency: number): void {
    if (this.paused) return; // refused: the round's commit() says why
    this.builder.push(sessionId, time, hop, latency);
  }

  /** Remembers a hop's address and reverse name (written with the next flush, unless the store holds them already). */
  seeHost(h: HostSeen): void {
    const key = `${h.sessionId}:${h.hop}`;
    if (!this.hostsSeen.has(key)) {
      const stored = this.hostsStored.get(h.sessionId)?.get(h.hop);
      // An empty name keeps the stored one for the same address (the upsert's rule below).
      if (stored && stored.address === h.address && (h.dnsName === '' || h.dnsName === stored.dnsName)) return;
    }
    this.hostsSeen.set(key, h);
  }

  /** Counts a round's answering addresses per hop with their details (closed minutes go with a flush). */
  seeHopHosts(sessionId: number, time: number, hops: readonly HopSeen[]): void {
    if (this.paused) return;
    this.hopHosts.see(sessionId, time, hops);
  }

  /** The hop hosts rows of a session the store may not have yet (tally.ts held()), for reads. */
  openHopHosts(sessionId: number): HopHostRow[] {
    return this.hopHosts.held(sessionId);
  }

  /** The latest hop details texts handed to the store for a session, by `${hop} ${address}` (hop-details/repository.ts KnownDetails). */
  latestHopDetails(sessionId: number): ReadonlyMap<string, { details: string; minute: number }> | undefined {
    return this.hopHosts.latestDetails(sessionId);
  }

  /**
   * Pauses ingest with a reason (samples are refused, the file is not written) or, with
   * undefined, resumes it. A full disk would otherwise fail a commit half-way through DuckDB's
   * file growth.
   */
  pauseFor(reason: string | undefined): void {
    this.paused = reason;
  }

  /** Why ingest is paused, if it is. */
  get pausedFor(): string | undefined {
    return this.paused;
  }

  /** Waits for the flush that will hold everything added so far. */
  commit(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('ingest is closed'));
    if (this.paused) return Promise.reject(new Error(this.paused));
    const p = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    void this.flushSoon(this.builder.length >= this.maxBatch);
    return p;
  }

  /**
   * Adds a whole columnar batch (bulk import, benchmarks), flushes at once and waits for its
   * commit and for the rollup rows that flush writes, if it writes them.
   */
  async addBatch(b: SampleBatch): Promise<void> {
    if (this.closed) throw new Error('ingest is closed');
    if (this.paused) throw new Error(this.paused);
    this.builder.pushBatch(b);
    const p = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    const flushed = this.flushSoon(true);
    await p;
    await flushed;
    await this.rollupWrite;
  }

  private flushSoon(now: boolean): Promise<void> {
    if (now) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      return this.enqueueFlush();
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.enqueueFlush();
    }, this.flushIntervalMs);
    return this.flushing;
  }

  private enqueueFlush(): Promise<void> {
    // While a flush runs, every batch that arrives waits for the one flush queued behind
    // it, so under load each commit carries more samples instead of more commits queueing.
    if (this.flushQueued) return this.flushing;
    this.flushQueued = true;
    this.flushing = this.flushing.then(() => {
      this.flushQueued = false;
      return this.flush();
    });
    return this.flushing;
  }

  private async flush(): Promise<void> {
    const waiters = this.waiters;
    this.waiters = [];
    const hosts = [...this.hostsSeen.values()];
    this.hostsSeen.clear();
    const raw = this.builder.take();
    // Open minutes go with the flush that finishes their session, or the last one at close.
    const finishingHopHosts = this.closing ? this.hopHosts.sessionIds() : [...this.states].filter(([, s]) => s.finishing).map(([id]) => id);
    const hopHosts = this.hopHosts.take(finishingHopHosts);
    let finishing: Set<number>;
    try {
      finishing = await this.flushSamples(raw, hosts, hopHosts);
      this.hopHosts.committed();
      for (const w of waiters) w.resolve();
    } catch (err) {
      this.hopHosts.giveBack(hopHosts);
      for (const w of waiters) w.reject(err as Error);
      return;
    }
    // The samples are committed and announced. The closed rollup rows follow on a connection
    // of their own while the next flushes go on: written in the flush's transaction, the
    // rows of 1,000 sessions held that flush's HostUpdated and the flushes queued behind it
    // 80-270 ms once a minute (bench:agents).
    if (this.closing || finishing.size > 0) {
      // Everything of a finishing session, or of all at close, is written before it is forgotten.
      try {
        await this.rollupWrite;
        await this.writeRollups();
      } catch (err) {
        // Nothing is lost: the session is kept, with its rows, and the next flush tries again.
        if (this.closing) throw err;
        this.onRollupWriteError?.(err as Error);
        this.scheduleRollupWrite();
        return;
      }
      for (const id of finishing) {
        this.states.delete(id);
        this.hostsStored.delete(id);
      }
    } else if (!this.rollupWrite && this.rollupsDue()) {
      this.rollupWrite = this.writeRollups()
        .catch((err: Error) => this.onRollupWriteError?.(err))
        .finally(() => {
          this.rollupWrite = undefined;
          this.scheduleRollupWrite();
        });
    } else {
      this.scheduleRollupWrite();
    }
  }

  /**
   * Prepares the batch (validation, rollups) and commits its samples, tallies, hosts and hop
   * hosts in one transaction; then moves the in-memory state on and announces HostUpdated.
   * The newly closed rollup rows join the unwritten ones. Returns the sessions this flush
   * finishes.
   */
  private async flushSamples(raw: SampleBatch, hosts: HostSeen[], hopHosts: HopHostRow[]): Promise<Set<number>> {
    // prepareFlush validates the batch and closes the periods of every level in one task; it
    // needs each session's carried-over state.
    const ids = sessionsIn(raw);
    // The sessions this flush finishes, fixed now: finishSession() may flag one while this
    // flush runs (Reset or Close during a commit of the trace's rounds). Its worker task has
    // not rolled that one up completely, so this flush must not forget it (nor count it as a
    // reason to write rollups): the flush queued behind this one finishes it. Forgetting it
    // here lost its unwritten rows, and its next samples (the trace's stop marker) started a
    // new state whose marks were later written over the rows the store never got: after a
    // restart the store answered 0 for those minutes (docs/store.md, Ingest).
    const finishing = new Set<number>();
    for (const [id, s] of this.states) if (s.finishing) finishing.add(id);
    for (const id of finishing) ids.add(id);
    // A small batch is prepared here: on a busy host the hop to the worker thread and back
    // waited for a core for 100-200 ms (bench:agents, flushes of 400-9,400 samples).
    const inline = raw.length <= this.inlineSamples;
    if (this.shared) await this.loadStates(ids);
    const sessions: SessionCarry[] = [...ids].map((sessionId) => {
      let state = this.states.get(sessionId);
      if (!state) this.states.set(sessionId, (state = new SessionRollupState()));
      const { time, hop, latency } = state.raw;
      return {
        sessionId,
        closedUntil: state.closedUntil,
        maxTime: state.maxTime,
        finishing: finishing.has(sessionId),
        // prepareFlush only reads it; the worker gets copies (a view would clone the whole buffer behind it).
        pending: inline ? state.raw : { time: time.slice(), hop: hop.slice(), latency: latency.slice() },
        pendingRows: state.pendingRows,
      };
    });
    const task: FlushTask = { op: 'flush', batch: raw, sessions };
    const prepared =
      inline
        ? prepareFlush(task)
        : ((await this.pool.run(task, {
            transferList: [raw.session.buffer, raw.time.buffer, raw.hop.buffer, raw.latency.buffer, ...(raw.stored ? [raw.stored.time.buffer, raw.stored.hop.buffer, raw.stored.latency.buffer] : [])] as ArrayBuffer[],
          })) as FlushResult);
    this.dropped += prepared.dropped;
    const batch = prepared.batch;

    const plans: Plan[] = prepared.sessions.map((f) => {
      const state = this.states.get(f.sessionId)!;
      if (f.add.time.length) state.anchor(f.first);
      return {
        sessionId: f.sessionId,
        state,
        count: f.add.time.length,
        first: f.first,
        last: f.last,
        raw: f.pending,
        add: f.add,
        coverFrom: [...state.closedUntil],
        rows: f.rows,
        closedUntil: f.closedUntil,
        pendingRows: f.pendingRows,
      };
    });
    // PostgreSQL's day partitions are made before the transaction, and again when another
    // process dropped one meanwhile (sample-tables.ts inDayPartitions).
    // Background: a data call reads what is committed instead of waiting for this flush.
    await inDayPartitions(this.store, () => prepareSampleWrite(this.store, batch), () =>
      this.store.transaction(async (q, conn) => {
        await writeSamples(conn, batch);
        // The sessions' sample counters, as tallies (one appended row per session: no UPDATE).
        await appendTallies(conn, plans.filter((p) => p.count));
        await upsertHosts(q, hosts, Date.now());
        await appendHopHosts(conn, hopHosts);
      }, { background: true }),
    );

    for (const h of hosts) {
      let hops = this.hostsStored.get(h.sessionId);
      if (!hops) this.hostsStored.set(h.sessionId, (hops = new Map()));
      const before = hops.get(h.hop);
      const dnsName = h.dnsName !== '' || !before || before.address !== h.address ? h.dnsName : before.dnsName;
      hops.set(h.hop, { address: h.address, dnsName });
    }
    // Committed: now the in-memory state may move on. The batch's buffers go back to the
    // builder after the recent data copied what it keeps (nothing else holds on to them).
    let inMemory = this.sessionsInMemory();
    const now = Date.now();
    for (const p of plans) {
      const s = p.state;
      const earlierRaw = s.raw;
      s.raw = p.raw;
      s.closedUntil = p.closedUntil;
      s.pendingRows = p.pendingRows;
      if (p.count) s.maxTime = Math.max(s.maxTime, p.last);
      if (!s.recent && !p.coverFrom.some(Number.isNaN) && this.windowFor(s, inMemory, now)) {
        if (inMemory < this.memorySessions) inMemory++;
        // Memory starts with what neither this flush nor the store holds: the raw samples not
        // rolled up yet and the closed rows not written yet (all of them from where the
        // session's grid starts, when the store holds none).
        const rowsFrom = s.storedMarks.map((m, level) => (Number.isNaN(m) ? p.coverFrom[level] : m));
        s.recent = new RecentData({ rawFrom: p.coverFrom[0], rowsFrom, marks: p.closedUntil, raw: [earlierRaw], rows: s.unwritten.map((parts) => concatRollupRows(parts)) });
      }
      s.recent?.commit(p.add, p.rows, p.closedUntil, s.maxTime, s.storedMarks);
      p.rows.forEach((r, level) => {
        if (!r.time.length) return;
        s.unwritten[level].push(r);
        this.unwrittenRows += r.time.length;
        if (Number.isNaN(this.unwrittenSince)) this.unwrittenSince = Date.now();
      });
      if (p.count) {
        this.commitCount.set(p.sessionId, this.commits(p.sessionId) + 1);
        const accountId = this.accountOf.get(p.sessionId);
        if (accountId !== undefined) this.events.emit('HostUpdated', accountId, p.sessionId, String(p.sessionId), p.last);
        for (const listener of this.committedListeners) {
          try {
            listener(p.sessionId, p.add);
          } catch {
            // A listener's failure is its own (it logs); the commit stands.
          }
        }
      }
    }
    this.builder.recycle(batch);
    return finishing;
  }

  /** A trickle that stops still gets written: a flush once the oldest unwritten row is due. */
  private scheduleRollupWrite(): void {
    if (this.unwrittenRows === 0 || this.closed) return;
    this.rollupTimer ??= setTimeout(() => {
      this.rollupTimer = undefined;
      void this.enqueueFlush();
    }, Math.max(0, this.unwrittenSince + this.rollupWriteAgeMs - Date.now())).unref();
  }

  /** Whether the closed rollup rows that wait are written now. */
  private rollupsDue(): boolean {
    if (this.rollupWriteRows === 0) return true;
    if (this.unwrittenRows === 0) return false;
    return this.unwrittenRows >= this.rollupWriteRows || Date.now() - this.unwrittenSince >= this.rollupWriteAgeMs;
  }

  /**
   * Appends every closed row the store does not hold yet, through one appender, and moves
   * the marks to match, in one transaction on the store's rollups lane; then folds the
   * sessions' tallies into their rows. The rows and marks it writes are those of the moment
   * it starts: flushes that commit meanwhile add rows behind them, written next time.
   */
  private async writeRollups(): Promise<void> {
    const sets: RollupSet[] = [];
    const moved: MarkMove[] = [];
    const taken: { state: SessionRollupState; parts: number[]; marks: number[] }[] = [];
    let rows = 0;
    for (const [sessionId, state] of this.states) {
      const marks = [...state.closedUntil];
      RollupResolutionsMs.forEach((resolution, level) => {
        // Per session and level in time order: the rows read back without ORDER BY rely on it.
        for (const part of state.unwritten[level]) {
          sets.push({ resolution, sessionId, rows: part });
          rows += part.time.length;
        }
        const mark = marks[level];
        if (!Number.isNaN(mark) && mark !== state.storedMarks[level]) moved.push({ resolution, sessionId, closedUntil: mark, stored: !Number.isNaN(state.storedMarks[level]) });
      });
      taken.push({ state, parts: state.unwritten.map((parts) => parts.length), marks });
    }
    if (sets.length || moved.length) {
      await inDayPartitions(this.store, () => prepareRollupWrite(this.store, sets), () =>
        this.store.side((q, conn) => inTransaction(q, conn, async () => {
          // Shared: another replica may have written some of these periods (the session came
          // here while that one still held it): only rows past the stored marks are written.
          const fresh = this.shared ? await pastStoredMarks(q, sets) : sets;
          await writeRollupRows(conn, fresh);
          await writeMarks(q, moved);
        }), 'rollups'),
      );
    }
    for (const { state, parts, marks } of taken) {
      parts.forEach((n, level) => state.unwritten[level].splice(0, n));
      state.storedMarks = marks;
    }
    this.unwrittenRows -= rows;
    this.unwrittenSince = this.unwrittenRows > 0 ? Date.now() : NaN;
    if (this.rollupTimer) clearTimeout(this.rollupTimer);
    this.rollupTimer = undefined;
    // The tallies in a transaction of their own: it changes sessions rows, which another
    // write (a trace stopping) may change first. Then it fails alone, and the next write
    // folds them; until then sessions_counted adds them, so no answer changes.
    await this.store
      .side((q, conn) => inTransaction(q, conn, (tq) => foldTallies(tq)), 'rollups')
      .catch((err: Error) => this.onRollupWriteError?.(err));
  }

  /** Closed rollup rows waiting to be written (in memory, rolled up again at start if lost). */
  get unwrittenRollupRows(): number {
    return this.unwrittenRows;
  }

  /** Flushes what waits and stops the worker. */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.rollupTimer) clearTimeout(this.rollupTimer);
    this.rollupTimer = undefined;
    this.closing = true; // the last flush writes every rollup row that waits
    await this.enqueueFlush();
    this.closed = true;
    await this.pool.destroy();
  }
}

/** A rollup level's closed-until of one session, to be stored; `stored`: rollup_marks has a row for it. */
interface MarkMove {
  resolution: number;
  sessionId: number;
  closedUntil: number;
  stored: boolean;
}

/**
 * Moves the rollup marks: one UPDATE from column lists for marks the store holds (a statement
 * costs about a millisecond, an upsert two to three), an upsert for a session's first marks.
 */
async function writeMarks(q: Queryable, moved: MarkMove[]): Promise<void> {
  // The marks as one list per column, not VALUES rows of parameters: with 1,000 sessions a
  // VALUES list of 3,000 rows took 143 ms of the flush's transaction (bench:agents), every
  // HostUpdated behind it waiting (as upsertHosts below found for the hosts).
  const lists = (ms: MarkMove[]) => [
    list(ms.map((m) => m.resolution)),
    list(ms.map((m) => m.sessionId)),
    list(ms.map((m) => m.closedUntil)),
  ];
  const updated = moved.filter((m) => m.stored);
  if (updated.length) {
    // A mark only moves on (several replicas: one that held a session too long never moves it back).
    await q.run(
      `UPDATE rollup_marks SET closed_until = greatest(rollup_marks.closed_until, v.c)
       FROM (SELECT unnest($1::INTEGER[]) AS r, unnest($2::INTEGER[]) AS s, unnest($3::DOUBLE[]) AS c) v
       WHERE rollup_marks.resolution = v.r AND rollup_marks.session_id = v.s`,
      lists(updated),
    );
  }
  const inserted = moved.filter((m) => !m.stored);
  if (inserted.length) {
    await q.run(
      `INSERT INTO rollup_marks (resolution, session_id, closed_until)
       SELECT unnest($1::INTEGER[]), unnest($2::INTEGER[]), unnest($3::DOUBLE[])
       ON CONFLICT (resolution, session_id) DO UPDATE SET closed_until = greatest(rollup_marks.closed_until, excluded.closed_until)`,
      lists(inserted),
    );
  }
}

/**
 * The rows of each set past its session's stored mark at that resolution, the marks locked
 * (FOR UPDATE) until the transaction ends: two replicas writing the same session's rows one
 * after the other write each period once.
 */
async function pastStoredMarks(q: Queryable, sets: RollupSet[]): Promise<RollupSet[]> {
  if (!sets.length) return sets;
  const sessions = [...new Set(sets.map((s) => s.sessionId))];
  const rows = await q.all<{ resolution: number; session_id: number; closed_until: number }>(
    `SELECT resolution, session_id, closed_until FROM rollup_marks WHERE session_id IN (SELECT unnest($1::INTEGER[])) ORDER BY resolution, session_id FOR UPDATE`,
    [list(sessions)],
  );
  const marks = new Map(rows.map((r) => [`${r.resolution}:${r.session_id}`, Number(r.closed_until)]));
  const out: RollupSet[] = [];
  for (const s of sets) {
    const mark = marks.get(`${s.resolution}:${s.sessionId}`);
    if (mark === undefined || !s.rows.time.length || s.rows.time[0] >= mark) out.push(s);
    else {
      const rest = sliceRollupRows(s.rows, mark, Infinity);
      if (rest.time.length) out.push({ ...s, rows: rest });
    }
  }
  return out;
}

const HostsPerStatement = 5000;

/**
 * Writes hops' addresses and reverse names, many hops per statement as one list per column
 * (binding 30,000 rows this way took 0.4 s, as VALUES rows of five parameters 2.9 s). A new
 * address without a name clears the old address's name; the same address without one keeps it.
 */
async function upsertHosts(q: Queryable, hosts: HostSeen[], now: number): Promise<void> {
  for (let i = 0; i < hosts.length; i += HostsPerStatement) {
    const part = hosts.slice(i, i + HostsPerStatement);
    await q.run(
      `INSERT INTO hosts (session_id, hop, address, dns_name, updated_at)
       SELECT *, $5::BIGINT FROM (SELECT unnest($1::INTEGER[]), unnest($2::SMALLINT[]), unnest($3::VARCHAR[]), unnest($4::VARCHAR[])) AS v
       ON CONFLICT (session_id, hop) DO UPDATE SET address = excluded.address,
         dns_name = CASE WHEN excluded.dns_name <> '' THEN excluded.dns_name
                         WHEN excluded.address <> hosts.address THEN '' ELSE hosts.dns_name END,
         updated_at = excluded.updated_at`,
      [
        list(part.map((h) => h.sessionId)),
        list(part.map((h) => h.hop)),
        list(part.map((h) => h.address)),
        list(part.map((h) => h.dnsName)),
        now,
      ],
    );
  }
}

/** The sessions that have rows in the batch. */
function sessionsIn(batch: SampleBatch): Set<number> {
  const out = new Set<number>();
  let last = NaN;
  for (let i = 0; i < batch.length; i++) {
    const sid = batch.session[i];
    if (sid !== last) out.add(sid);
    last = sid;
  }
  return out;
}
