// The alerts' outbox: an append-only journal, fsynced, beside the database (docs/alerts.md,
// "Delivery does not wait for ingest"). The notifications an event makes and the state
// changes are written here first, then delivered at once, and only then written to DuckDB,
// whose single write lane may be busy with an ingest flush for seconds. A crash before the
// DuckDB write leaves them in the journal, which the next start replays into the store (the
// rows by id, so a row already there is not queued twice); segments whose entries the store
// holds are deleted.
import { mkdirSync, readdirSync, readFileSync, rmSync, openSync, fsyncSync, closeSync } from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { NotificationRecord, StateRecord } from './repository.js';

/** A notification as queued: the record plus when it was made. */
export interface OutboxNotification extends NotificationRecord {
  createdAt: number;
}

/** What one batch (everything a flush or a few fired together) wrote. */
export interface OutboxEntry {
  seq: number;
  states: StateRecord[];
  notifications: OutboxNotification[];
}

/** A new segment is started past this size; old ones go once the store holds their entries. */
const SegmentBytes = 1 << 20;
const SegmentName = /^outbox-(\d{8})\.jsonl$/;

interface Segment {
  n: number;
  path: string;
  bytes: number;
  /** The highest seq written into it. */
  lastSeq: number;
}

export class Outbox {
  private readonly segments: Segment[] = [];
  private handle: FileHandle | undefined;
  private seq = 0;
  /** Every entry up to this seq is in the store. */
  private stored = 0;
  /** A store write failed: nothing is deleted until the next start replays everything. */
  private stuck = false;
  /** Appends run one at a time, in seq order. */
  private appending: Promise<unknown> = Promise.resolve();

  private constructor(private readonly dir: string) {}

  /** Opens the directory and reads what a previous run left (in seq order). */
  static open(dir: string): { outbox: Outbox; left: OutboxEntry[] } {
    mkdirSync(dir, { recursive: true });
    const outbox = new Outbox(dir);
    const left: OutboxEntry[] = [];
    let lastN = 0;
    for (const name of readdirSync(dir).sort()) {
      const m = SegmentName.exec(name);
      if (!m) continue;
      lastN = Math.max(lastN, Number(m[1]));
      for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
        if (!line) continue;
        try {
          left.push(JSON.parse(line) as OutboxEntry);
        } catch {
          // A line torn by the crash was never fsynced, so nothing of it was delivered.
        }
      }
      outbox.segments.push({ n: Number(m[1]), path: join(dir, name), bytes: Infinity, lastSeq: Infinity });
    }
    left.sort((a, b) => a.seq - b.seq);
    outbox.seq = left.length ? left[left.length - 1].seq : 0;
    outbox.nextSegmentN = lastN + 1;
    return { outbox, left };
  }

  private nextSegmentN = 1;

  /** The previous run's segments are in the store now (replayed at start): delete them. */
  replayed(): void {
    for (const s of this.segments.splice(0)) rmSync(s.path, { force: true });
    this.stored = this.seq;
    syncDir(this.dir);
  }

  /** Writes one entry durably (fdatasync) and answers its seq once it is on disk. */
  append(states: StateRecord[], notifications: OutboxNotification[]): Promise<number> {
    const seq = ++this.seq;
    const line = `${JSON.stringify({ seq, states, notifications } satisfies OutboxEntry)}\n`;
    const done = this.appending.then(async () => {
      const seg = await this.current();
      await this.handle!.appendFile(line, 'utf8');
      await this.handle!.datasync();
      seg.bytes += Buffer.byteLength(line);
      seg.lastSeq = seq;
      return seq;
    });
    this.appending = done.catch(() => undefined);
    return done;
  }

  /** The segment to append to: a new one when there is none or the last is full. */
  private async current(): Promise<Segment> {
    const last = this.segments[this.segments.length - 1];
    if (last && this.handle && last.bytes < SegmentBytes) return last;
    await this.handle?.close();
    const n = this.nextSegmentN++;
    const seg: Segment = { n, path: join(this.dir, `outbox-${String(n).padStart(8, '0')}.jsonl`), bytes: 0, lastSeq: this.seq };
    this.handle = await open(seg.path, 'a');
    syncDir(this.dir); // the new file's name must survive a crash too
    this.segments.push(seg);
    return seg;
  }

  /** The store committed the entries up to seq (writes commit in seq order). */
  async storedUpTo(seq: number): Promise<void> {
    if (this.stuck) return;
    this.stored = Math.max(this.stored, seq);
    // Full segments whose every entry is stored; the one being appended to stays.
    while (this.segments.length > 1 && this.segments[0].lastSeq <= this.stored) {
      const s = this.segments.shift()!;
      await rm(s.path, { force: true });
    }
  }

  /** A store write failed: its entries stay in the journal for the next start. */
  storeFailed(): void {
    this.stuck = true;
  }

  /** Entries written since start (for /metrics and the bench). */
  get written(): number {
    return this.seq;
  }

  /** Closes the journal; when the store holds every entry, nothing is left for the next start. */
  async close(): Promise<void> {
    await this.appending;
    await this.handle?.close();
    this.handle = undefined;
    if (this.stuck || this.stored < this.seq) return;
    for (const s of this.segments.splice(0)) await rm(s.path, { force: true });
  }
}

function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems refuse fsync on a directory; the file's own datasync still holds.
  }
}
