// The agent's on-disk spool of round batches (issue 17): every batch is written under its
// sequence number before it is sent, and forgotten only when the server acknowledges it (after
// its commit), so nothing is lost while the server is away or the agent restarts. Bounded by
// age and size (default 7 days, 1 GiB): the oldest batches are dropped first, with a log line.
//
// Batches are lines of segment files (`<first seq>.json`), one batch per line as the link's
// frame `{"t":"batch","seq":N,"rounds":[...]}`, sent as the bytes written. They are appended
// to one open segment until it holds SegmentBytes. A file per batch (until 2026-11-27) cost
// ~330 us of CPU and ~1.8 ms of the event loop a batch; appending ~70 us and ~0.17 ms
// (docs/agents.md). An older agent's spool still reads: a file of that layout is a segment of
// one batch, and a line without the `"t"` field gets it when read.
//
// Durability: a written batch is in the kernel's page cache at once, so it survives the agent
// being killed or restarted. Against a power cut it is synced (fdatasync) within SyncMs unless
// the server acknowledged it first, which is the usual case while connected (a sync a batch
// was 20 a second for nothing): a machine that loses power loses at most the last SyncMs of
// rounds it had not yet delivered, as it loses the rounds still gathering in memory.
//
// A segment is deleted once every batch in it is acknowledged or dropped; the open one grows
// until full, its acknowledged lines skipped after a restart by the `acked` file (rewritten at
// most once a second, without fsync: a stale one only means batches the server already has are
// sent again, and the server stores those once). That file is kept open and overwritten in
// place with a fixed-width number: truncating and rewriting it made ext4 flush it on close
// (auto_da_alloc), ~1.7 ms of the agent's CPU a second.
import { closeSync, existsSync, fdatasyncSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { BatchBuffer } from './batch-buffer.js';
import type { WireRound } from './protocol.js';
import { writeFileAtomic } from './state.js';

export interface SpoolLimits {
  maxBytes: number;
  maxAgeMs: number;
}

export const DefaultSpoolLimits: SpoolLimits = { maxBytes: 1024 ** 3, maxAgeMs: 7 * 24 * 3600 * 1000 };

/** A spooled batch's line, parsed (lines written before 2026-11-28 have no `t`). */
export interface SpooledBatch {
  t?: 'batch';
  seq: number;
  rounds: WireRound[];
}

/** A batch as the link sends it: the frame `{"t":"batch","seq":N,"rounds":[...]}` as UTF-8. */
export interface SpooledFrame {
  seq: number;
  frame: Buffer;
}

const FramePrefix = Buffer.from('{"t":"batch",');

const SeqBlock = 1000;
/** A segment takes batches until it holds this many bytes. */
export const SegmentBytes = 4 * 1024 * 1024;
/** How often at most the `acked` file is rewritten (ms). */
const AckedWriteMs = 1000;
/** How long a written batch may wait for its acknowledgement before it is synced to disk (ms). */
export const SyncMs = 1000;

const segmentName = (first: number) => `${String(first).padStart(16, '0')}.json`;
const SegmentFile = /^\d{16}\.json$/;
/** The sequence number at the start of a batch's line (older lines have no `"t"`). */
const SeqPrefix = /^\{(?:"t":"batch",)?"seq":(\d+),/;

/** Calls fn for every line of a segment: its seq (undefined: not a batch), offset and length. */
function scanSegment(data: Buffer, fn: (seq: number | undefined, offset: number, bytes: number) => void): void {
  for (let offset = 0; offset < data.length; ) {
    let end = data.indexOf(10, offset);
    if (end < 0) end = data.length;
    if (end > offset) {
      const m = SeqPrefix.exec(data.toString('latin1', offset, Math.min(end, offset + 40)));
      fn(m ? Number(m[1]) : undefined, offset, end - offset);
    }
    offset = end + 1;
  }
}

/** The spool's acknowledged mark (0 when there is none yet). */
function readAcked(dir: string): number {
  try {
    return Number(readFileSync(join(dir, 'acked'), 'utf8')) || 0;
  } catch {
    return 0;
  }
}

/**
 * How many batches a spool directory holds that are not acknowledged (by its `acked` mark),
 * read without changing anything (for tests that watch a running agent's spool from outside).
 */
export function spooledBatchCount(dir: string): number {
  if (!existsSync(dir)) return 0;
  const acked = readAcked(dir);
  let n = 0;
  for (const f of readdirSync(dir).filter((name) => SegmentFile.test(name))) {
    scanSegment(readFileSync(join(dir, f)), (seq) => {
      if (seq !== undefined && seq > acked) n++;
    });
  }
  return n;
}

interface Batch {
  segment: number; // first seq of its segment
  offset: number;
  bytes: number; // the line without its newline
  at: number; // written (ms)
}

interface Segment {
  live: number; // batches in it not yet acknowledged or dropped
  size: number;
}

/** The spool's batches on disk, as the lines of segment files (see the top of the file). */
export class Spool {
  private nextSeq: number;
  /** Numbers up to this one may have been used (persisted in the file `seq`). */
  private reserved = 0;
  /** The batches on disk by seq, in ascending order (Map order: appended in order). */
  private readonly batches = new Map<number, Batch>();
  /** Segment files by first seq, ascending. */
  private readonly segments = new Map<number, Segment>();
  /** The segment being appended to: its first seq and open descriptor. */
  private open?: { first: number; fd: number };
  private bytes = 0;
  /** Highest seq settled: everything at or below it is committed on the server, or was refused by it. */
  private acked = 0;
  private ackedWritten = 0;
  private ackedTimer?: NodeJS.Timeout;
  private ackedFd?: number;
  /** The batches written to the open segment since its last sync: first and last seq (none: 0). */
  private unsyncedFrom = 0;
  private unsynced = 0;
  private syncTimer?: NodeJS.Timeout;
  private syncCount = 0;

  constructor(
    private readonly dir: string,
    private readonly limits: SpoolLimits = DefaultSpoolLimits,
    private readonly log: (msg: string) => void = (m) => console.log(m),
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    let last = 0;
    try {
      last = Number(readFileSync(join(dir, 'seq'), 'utf8')) || 0;
      this.reserved = last;
    } catch {
      /* a new spool */
    }
    this.acked = this.ackedWritten = readAcked(dir);
    for (const f of readdirSync(dir).filter((n) => SegmentFile.test(n)).sort()) {
      last = Math.max(last, this.load(Number(f.slice(0, 16)), join(dir, f)));
    }
    this.nextSeq = last + 1;
  }

  /** Indexes a segment's batches (those not acknowledged); returns the highest seq seen in it. */
  private load(first: number, path: string): number {
    const data = readFileSync(path);
    const at = statSync(path).mtimeMs;
    const seg: Segment = { live: 0, size: data.length };
    let high = first;
    scanSegment(data, (seq, offset, bytes) => {
      if (seq === undefined) return this.log(`spool: an unreadable line in ${segmentName(first)} was dropped`);
      high = Math.max(high, seq);
      if (seq <= this.acked || this.batches.has(seq)) return;
      this.batches.set(seq, { segment: first, offset, bytes, at });
      this.bytes += bytes;
      seg.live++;
    });
    if (seg.live > 0) this.segments.set(first, seg);
    else rmSync(path, { force: true });
    return high;
  }

  /** The server committed everything up to `seq` before (a reinstalled spool starts after it). */
  advanceTo(lastCommitted: number): void {
    if (lastCommitted >= this.nextSeq) this.nextSeq = lastCommitted + 1;
  }

  /** Writes the gathered batch under the next sequence number (emptying it); answers the frame that sends it. */
  append(batch: BatchBuffer): SpooledFrame {
    const seq = this.nextSeq++;
    // Numbers are reserved in blocks (one fsync per block): after a restart numbering goes on
    // past the block, so a number is never used twice, even with an empty spool.
    if (seq > this.reserved) {
      this.reserved = seq + SeqBlock;
      writeFileAtomic(join(this.dir, 'seq'), String(this.reserved));
    }
    const line = batch.line(seq);
    let seg = this.open && this.segments.get(this.open.first);
    if (!this.open || !seg || seg.size + line.length > SegmentBytes) {
      this.closeOpen();
      // A new segment, named by its first batch (after a restart never one of the last run's).
      this.open = { first: seq, fd: openSync(join(this.dir, segmentName(seq)), 'a+', 0o600) };
      seg = { live: 0, size: 0 };
      this.segments.set(seq, seg);
    }
    writeSync(this.open.fd, line);
    this.batches.set(seq, { segment: this.open.first, offset: seg.size, bytes: line.length - 1, at: Date.now() });
    if (!this.unsyncedFrom) this.unsyncedFrom = seq;
    this.unsynced = seq;
    this.armSync(SyncMs);
    seg.size += line.length;
    seg.live++;
    this.bytes += line.length - 1;
    this.enforceLimits();
    return { seq, frame: line.subarray(0, line.length - 1) };
  }

  /** The sequence numbers of the batches not yet acknowledged, oldest first. */
  pendingSeqs(): number[] {
    return [...this.batches.keys()];
  }

  /** Bytes of a batch on disk (0 when it is gone). */
  bytesOf(seq: number): number {
    return this.batches.get(seq)?.bytes ?? 0;
  }

  /** One batch's frame, checked to parse; an unreadable one is dropped with a log line (undefined). */
  readFrame(seq: number): SpooledFrame | undefined {
    const b = this.batches.get(seq);
    if (!b) return undefined;
    try {
      const buf = Buffer.alloc(b.bytes);
      const own = this.open?.first === b.segment;
      const fd = own ? this.open!.fd : openSync(join(this.dir, segmentName(b.segment)), 'r');
      try {
        if (readSync(fd, buf, 0, b.bytes, b.offset) !== b.bytes) throw new Error('short read');
      } finally {
        if (!own) closeSync(fd);
      }
      if ((JSON.parse(buf.toString('utf8')) as SpooledBatch).seq !== seq) throw new Error('another batch');
      // A line of an older agent (`{"seq":N,...}`) gets the frame's type.
      const framed = buf.subarray(0, FramePrefix.length).equals(FramePrefix);
      return { seq, frame: framed ? buf : Buffer.concat([FramePrefix, buf.subarray(1)]) };
    } catch {
      this.log(`spool: batch ${seq} is unreadable and was dropped`);
      this.remove(seq);
      return undefined;
    }
  }

  has(seq: number): boolean {
    return this.batches.has(seq);
  }

  /** Acknowledged: the batch and every older one are committed on the server. */
  acknowledge(seq: number): void {
    for (const s of this.batches.keys()) {
      if (s > seq) break;
      this.remove(s);
    }
    this.settle(seq);
  }

  /**
   * The server refused the batch: it will never store it, so it is dropped and never sent
   * again, after a restart either (issue 39). The server answers batches in order, so
   * everything older has been answered too: the mark moves past it when nothing older is
   * left (a batch the mark does not cover would be read back from its segment at the next start).
   */
  drop(seq: number): void {
    this.remove(seq);
    const oldest = this.batches.keys().next();
    if (oldest.done || oldest.value > seq) this.settle(seq);
  }

  /** Moves the settled mark (written to disk at most once a second). */
  private settle(seq: number): void {
    if (seq > this.acked) {
      this.acked = seq;
      this.ackedTimer ??= setTimeout(() => this.writeAcked(), AckedWriteMs);
      this.ackedTimer.unref?.();
    }
  }

  remove(seq: number): void {
    const b = this.batches.get(seq);
    if (!b) return;
    this.batches.delete(seq);
    this.bytes -= b.bytes;
    const seg = this.segments.get(b.segment);
    if (seg && --seg.live === 0 && this.open?.first !== b.segment) {
      this.segments.delete(b.segment);
      rmSync(join(this.dir, segmentName(b.segment)), { force: true });
    }
  }

  /** Syncs done (for tests and diagnosis). */
  get syncs(): number {
    return this.syncCount;
  }

  /** Batches not yet acknowledged. */
  get size(): number {
    return this.batches.size;
  }

  /** Closes the open segment (the program stopping); the spool stays usable. */
  close(): void {
    this.closeOpen();
    this.writeAcked();
    if (this.ackedFd !== undefined) closeSync(this.ackedFd);
    this.ackedFd = undefined;
  }

  private armSync(ms: number): void {
    if (this.syncTimer) return;
    this.syncTimer = setTimeout(() => this.syncDue(), ms);
    this.syncTimer.unref?.();
  }

  /**
   * The sync timer: syncs once the oldest batch written since the last sync and not yet
   * acknowledged is SyncMs old; until then it waits for that batch. Looking at the newest batch
   * instead synced once a second while connected, since one was always just written.
   */
  private syncDue(): void {
    this.syncTimer = undefined;
    if (!this.open || !this.unsyncedFrom) return;
    let seq = Math.max(this.unsyncedFrom, this.acked + 1);
    while (seq <= this.unsynced && !this.batches.has(seq)) seq++; // acknowledged, refused or dropped
    if (seq > this.unsynced) {
      this.unsyncedFrom = this.unsynced = 0; // all of them delivered: nothing to sync
      return;
    }
    this.unsyncedFrom = seq;
    const wait = this.batches.get(seq)!.at + SyncMs - Date.now();
    if (wait > 0) this.armSync(wait);
    else this.sync();
  }

  /** Syncs the open segment if it holds a batch not yet acknowledged that was written since its last sync. */
  private sync(): void {
    if (this.syncTimer) clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    const due = this.unsyncedFrom !== 0 && this.unsynced > this.acked;
    this.unsyncedFrom = this.unsynced = 0;
    if (!this.open || !due) return;
    try {
      fdatasyncSync(this.open.fd);
      this.syncCount++;
    } catch (err) {
      this.log(`spool: a sync failed (${err instanceof Error ? err.message : String(err)})`);
    }
  }

  private closeOpen(): void {
    if (!this.open) return;
    this.sync();
    const { first, fd } = this.open;
    this.open = undefined;
    closeSync(fd);
    const seg = this.segments.get(first);
    if (seg && seg.live === 0) {
      this.segments.delete(first);
      rmSync(join(this.dir, segmentName(first)), { force: true });
    }
  }

  private writeAcked(): void {
    if (this.ackedTimer) clearTimeout(this.ackedTimer);
    this.ackedTimer = undefined;
    if (this.acked === this.ackedWritten) return;
    try {
      this.ackedFd ??= openAcked(join(this.dir, 'acked'));
      // Fixed width, so each write covers the last one (no truncation); read back by Number().
      writeSync(this.ackedFd, `${String(this.acked).padStart(16, '0')}\n`, 0);
      this.ackedWritten = this.acked;
    } catch (err) {
      // Only a shortcut for the next start (the handshake drops acknowledged batches too): a
      // full disk or a removed spool (Delete And Uninstall) must not stop the agent.
      this.log(`spool: the acknowledged mark was not written (${err instanceof Error ? err.message : String(err)})`);
    }
  }

  private enforceLimits(): void {
    const now = Date.now();
    // Oldest first (Map order), stopping at the first batch that may stay.
    for (const [seq, b] of this.batches) {
      const tooOld = now - b.at > this.limits.maxAgeMs;
      if (!tooOld && this.bytes <= this.limits.maxBytes) break;
      if (this.batches.size === 1) break;
      this.log(`spool: dropped batch ${seq} (${tooOld ? 'older than the spool keeps' : 'spool full'}); its rounds are lost`);
      this.remove(seq);
    }
  }
}

/** The `acked` file for writing in place (created when missing; an older agent's shorter mark is overwritten whole). */
function openAcked(path: string): number {
  try {
    return openSync(path, 'r+');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return openSync(path, 'w+', 0o600);
  }
}
