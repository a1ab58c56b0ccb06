// The agent's on-disk spool of round batches (issue 17): every batch is written (fsync) under
// its sequence number before it is sent, and deleted only when the server acknowledges it,
// so nothing is lost while the server is away or the agent restarts. Bounded by age and
// size (default 7 days, 1 GiB): the oldest batches are dropped first, with a log line.
import { closeSync, fdatasyncSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { WireRound } from './protocol.js';
import { writeFileAtomic } from './state.js';

export interface SpoolLimits {
  maxBytes: number;
  maxAgeMs: number;
}

export const DefaultSpoolLimits: SpoolLimits = { maxBytes: 1024 ** 3, maxAgeMs: 7 * 24 * 3600 * 1000 };

export interface SpooledBatch {
  seq: number;
  rounds: WireRound[];
}

/** A batch as the spool file holds it: `{"seq":N,"rounds":[...]}` (the link's frame adds its type). */
export interface SpooledText {
  seq: number;
  text: string;
}

const SeqBlock = 1000;

const name = (seq: number) => `${String(seq).padStart(16, '0')}.json`;

export class Spool {
  private nextSeq: number;
  /** Numbers up to this one may have been used (persisted in the file `seq`). */
  private reserved = 0;
  /** seq -> [bytes, written at] of the batches on disk, oldest first. */
  private readonly files = new Map<number, { bytes: number; at: number }>();
  private bytes = 0;

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
    for (const f of readdirSync(dir).filter((n) => /^\d{16}\.json$/.test(n)).sort()) {
      const seq = Number(f.slice(0, 16));
      const st = statSync(join(dir, f));
      this.files.set(seq, { bytes: st.size, at: st.mtimeMs });
      this.bytes += st.size;
      last = Math.max(last, seq);
    }
    this.nextSeq = last + 1;
  }

  /** The server committed everything up to `seq` before (a reinstalled spool starts after it). */
  advanceTo(lastCommitted: number): void {
    if (lastCommitted >= this.nextSeq) this.nextSeq = lastCommitted + 1;
  }

  /** Writes a batch under the next sequence number (durable before this returns). */
  append(rounds: WireRound[]): SpooledText {
    const seq = this.nextSeq++;
    // Numbers are reserved in blocks (one fsync per block): after a restart numbering goes on
    // past the block, so a number is never used twice, even with an empty spool.
    if (seq > this.reserved) {
      this.reserved = seq + SeqBlock;
      writeFileAtomic(join(this.dir, 'seq'), String(this.reserved));
    }
    const text = JSON.stringify({ seq, rounds } satisfies SpooledBatch);
    const path = join(this.dir, name(seq));
    const fd = openSync(path, 'w', 0o600);
    try {
      writeSync(fd, text);
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
    const bytes = Buffer.byteLength(text);
    this.files.set(seq, { bytes, at: Date.now() });
    this.bytes += bytes;
    this.enforceLimits();
    return { seq, text };
  }

  /** The sequence numbers of the batches not yet acknowledged, oldest first. */
  pendingSeqs(): number[] {
    return [...this.files.keys()].sort((a, b) => a - b);
  }

  /** Bytes of a batch on disk (0 when it is gone). */
  bytesOf(seq: number): number {
    return this.files.get(seq)?.bytes ?? 0;
  }

  /** One batch's file text, checked to parse; an unreadable one is dropped with a log line (undefined). */
  readText(seq: number): SpooledText | undefined {
    if (!this.files.has(seq)) return undefined;
    try {
      const text = readFileSync(join(this.dir, name(seq)), 'utf8');
      JSON.parse(text);
      return { seq, text };
    } catch {
      this.log(`spool: batch ${seq} is unreadable and was dropped`);
      this.remove(seq);
      return undefined;
    }
  }

  has(seq: number): boolean {
    return this.files.has(seq);
  }

  /** Acknowledged: the batch and every older one are committed on the server. */
  acknowledge(seq: number): void {
    for (const s of [...this.files.keys()]) if (s <= seq) this.remove(s);
  }

  remove(seq: number): void {
    const f = this.files.get(seq);
    if (!f) return;
    rmSync(join(this.dir, name(seq)), { force: true });
    this.files.delete(seq);
    this.bytes -= f.bytes;
  }

  get size(): number {
    return this.files.size;
  }

  private enforceLimits(): void {
    const now = Date.now();
    for (const [seq, f] of [...this.files.entries()].sort((a, b) => a[0] - b[0])) {
      const tooOld = now - f.at > this.limits.maxAgeMs;
      if (!tooOld && this.bytes <= this.limits.maxBytes) break;
      if (this.files.size === 1) break;
      this.log(`spool: dropped batch ${seq} (${tooOld ? 'older than the spool keeps' : 'spool full'}); its rounds are lost`);
      this.remove(seq);
    }
  }
}
