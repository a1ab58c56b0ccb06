import { appendFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BatchBuffer } from './batch-buffer.js';
import { Spool, spooledBatchCount, SyncMs, type SpooledBatch } from './spool.js';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'hopwatch-spool-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Every batch the spool holds, read back from disk, oldest first. */
const pending = (s: Spool): SpooledBatch[] => s.pendingSeqs().flatMap((seq) => {
  const b = s.readFrame(seq);
  return b ? [JSON.parse(b.frame.toString()) as SpooledBatch] : [];
});
const round = (traceId: number, time: number) => ({ traceId, time, hops: [{ ttl: 1, address: '10.0.0.1', name: null, rtt: 1 }] });
/** A round's wire text, as the program gathers it. */
const r = (traceId: number, time: number) => JSON.stringify(round(traceId, time));
/** A gathered batch of these texts. */
function batch(...texts: string[]): BatchBuffer {
  const b = new BatchBuffer();
  for (const t of texts) b.add(t);
  return b;
}

describe('agent spool', () => {
  it('numbers batches, keeps them across a restart, and forgets them only when acknowledged', () => {
    const dir = tmp();
    const s = new Spool(dir);
    expect(s.append(batch(r(1, 1))).seq).toBe(1);
    expect(s.append(batch(r(1, 2))).seq).toBe(2);
    const again = new Spool(dir);
    expect(pending(again).map((b) => b.seq)).toEqual([1, 2]);
    expect(pending(again)[1]).toEqual({ t: 'batch', seq: 2, rounds: [round(1, 2)] });
    again.acknowledge(1);
    expect(pending(again).map((b) => b.seq)).toEqual([2]);
    again.acknowledge(2);
    // The numbering goes on after everything was acknowledged, also after a restart (past
    // the block of numbers the last run reserved: gaps are harmless, reuse would not be).
    const later = new Spool(dir).append(batch(r(1, 3))).seq;
    expect(later).toBeGreaterThan(2);
    expect(new Spool(dir).append(batch(r(1, 4))).seq).toBeGreaterThan(later);
  });

  it('drops a batch the server refused for good, across a restart too, unless an older one is still unanswered', () => {
    const dir = tmp();
    const s = new Spool(dir);
    for (let i = 1; i <= 4; i++) s.append(batch(r(1, i)));
    s.acknowledge(1);
    s.drop(2); // nothing older left: settled like an acknowledged batch
    s.drop(4); // 3 is older and unanswered: dropped now, but the mark stays at 2
    expect(s.pendingSeqs()).toEqual([3]);
    s.close();
    expect(new Spool(dir).pendingSeqs()).toEqual([3, 4]);
  });

  it('continues after the server said what it committed', () => {
    const s = new Spool(tmp());
    s.advanceTo(41);
    expect(s.append(batch(r(1, 1))).seq).toBe(42);
  });

  it('drops the oldest batches first when full, and says so', () => {
    const lines: string[] = [];
    const s = new Spool(tmp(), { maxBytes: 250, maxAgeMs: 1e9 }, (m) => lines.push(m));
    for (let i = 1; i <= 5; i++) s.append(batch(r(1, i)));
    const kept = pending(s).map((b) => b.seq);
    expect(kept[kept.length - 1]).toBe(5);
    expect(kept[0]).toBeGreaterThan(1);
    expect(lines[0]).toMatch(/spool: dropped batch 1 \(spool full\)/);
  });

  it('appends batches to one segment file and deletes a segment once every batch in it is acknowledged', () => {
    const dir = tmp();
    const segments = () => readdirSync(dir).filter((f) => f.endsWith('.json'));
    const s = new Spool(dir);
    // Batches of ~1 MB: a segment (SegmentBytes, 4 MiB) holds four of them.
    const big = (i: number) => Array.from({ length: 1500 }, (_, k) => JSON.stringify({ ...round(i, k), hops: Array.from({ length: 10 }, () => round(i, k).hops[0]) }));
    for (let i = 1; i <= 6; i++) s.append(batch(...big(i)));
    expect(segments().length).toBe(2);
    expect(spooledBatchCount(dir)).toBe(6);
    const first = Number(segments().sort()[1].slice(0, 16)) - 1; // the last batch of the first segment
    s.acknowledge(first - 1);
    expect(segments().length).toBe(2); // one batch of the first segment is still waiting
    s.acknowledge(first);
    expect(segments().length).toBe(1);
    expect(pending(s).map((b) => b.seq)).toEqual(Array.from({ length: 6 - first }, (_, k) => first + 1 + k));
    expect(pending(s).every((b) => b.rounds.length === 1500)).toBe(true);
  });

  it('forgets acknowledged batches across a restart, and the open segment goes once it is empty and closed', () => {
    const dir = tmp();
    const s = new Spool(dir);
    for (let i = 1; i <= 4; i++) s.append(batch(r(1, i)));
    s.acknowledge(3);
    s.close(); // writes the acknowledged mark (otherwise within a second)
    expect(spooledBatchCount(dir)).toBe(1);
    const again = new Spool(dir);
    expect(pending(again).map((b) => b.seq)).toEqual([4]);
    const next = again.append(batch(r(1, 5))).seq;
    again.acknowledge(next);
    again.close();
    expect(readdirSync(dir).filter((f) => f.endsWith('.json'))).toEqual([]);
    expect(new Spool(dir).size).toBe(0);
  });

  it("reads an older agent's spool (a file per batch) and drops a torn or foreign line with a log line", () => {
    const dir = tmp();
    const name = (seq: number) => join(dir, `${String(seq).padStart(16, '0')}.json`);
    writeFileSync(name(7), JSON.stringify({ seq: 7, rounds: [round(1, 7)] }));
    writeFileSync(name(8), JSON.stringify({ seq: 8, rounds: [round(1, 8)] }));
    // A segment whose last write was cut by a crash, and a line that is no batch.
    writeFileSync(name(9), `${JSON.stringify({ seq: 9, rounds: [round(1, 9)] })}\nnot a batch\n`);
    appendFileSync(name(9), JSON.stringify({ seq: 10, rounds: [round(1, 10)] }).slice(0, 30));
    const lines: string[] = [];
    const s = new Spool(dir, undefined, (m) => lines.push(m));
    expect(lines).toEqual([expect.stringMatching(/unreadable line/)]);
    expect(pending(s).map((b) => b.seq)).toEqual([7, 8, 9]);
    // Their lines are sent as the link's frames.
    expect(JSON.parse(s.readFrame(7)!.frame.toString())).toEqual({ t: 'batch', seq: 7, rounds: [round(1, 7)] });
    expect(lines[1]).toMatch(/spool: batch 10 is unreadable and was dropped/);
    expect(s.append(batch(r(1, 11))).seq).toBe(11);
  });

  it('goes on when the acknowledged mark cannot be written (the spool removed under it)', () => {
    const dir = tmp();
    const lines: string[] = [];
    const s = new Spool(dir, undefined, (m) => lines.push(m));
    s.append(batch(r(1, 1)));
    s.acknowledge(1);
    rmSync(dir, { recursive: true, force: true });
    expect(() => s.close()).not.toThrow();
    expect(lines).toEqual([expect.stringMatching(/acknowledged mark was not written/)]);
  });

  it("a batch's line is the JSON of the batch and a newline, whatever the rounds' text holds, and the buffer starts the next one empty", () => {
    const rounds = [round(1, 1), { ...round(2, 2), hops: [{ ttl: 1, address: null, name: 'é ü 日本 🛰 "q" \\', rtt: -1 }] }, round(3, 3)];
    const b = new BatchBuffer();
    for (const n of [0, 1, 3]) {
      const some = rounds.slice(0, n);
      for (const x of some) b.add(JSON.stringify(x));
      expect(b.rounds).toBe(n);
      expect(b.line(12345).toString('utf8')).toBe(`${JSON.stringify({ t: 'batch', seq: 12345, rounds: some })}\n`);
      expect(b.rounds).toBe(0);
    }
    // Past its first 64 KiB it grows, keeping what it holds.
    const many = Array.from({ length: 2000 }, (_, i) => round(i + 1, i));
    for (const x of many) b.add(JSON.stringify(x));
    const line = b.line(Number.MAX_SAFE_INTEGER);
    expect(line.length).toBeGreaterThan(64 * 1024);
    expect(JSON.parse(line.toString('utf8'))).toEqual({ t: 'batch', seq: Number.MAX_SAFE_INTEGER, rounds: many });
  });

  it('syncs a batch to disk only when it is not acknowledged within SyncMs, and on close', () => {
    vi.useFakeTimers();
    try {
      const s = new Spool(tmp());
      // Acknowledged in time (the usual case while connected): no sync at all.
      s.append(batch(r(1, 1)));
      s.append(batch(r(1, 2)));
      s.acknowledge(2);
      vi.advanceTimersByTime(SyncMs + 1);
      expect(s.syncs).toBe(0);
      // Not acknowledged (the server away): one sync for the batches of that second.
      s.append(batch(r(1, 3)));
      s.append(batch(r(1, 4)));
      vi.advanceTimersByTime(SyncMs + 1);
      expect(s.syncs).toBe(1);
      s.append(batch(r(1, 5)));
      s.close();
      expect(s.syncs).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not sync a stream of batches each acknowledged soon after it was written, and syncs once a second when they are not', () => {
    vi.useFakeTimers();
    try {
      const s = new Spool(tmp());
      // Connected: a batch every 70 ms, each acknowledged 30 ms later; when a timer fires a
      // batch has just been written and is still waiting for its acknowledgement.
      let seq = 0;
      for (let i = 0; i < 100; i++) {
        seq = s.append(batch(r(1, i + 1))).seq;
        vi.advanceTimersByTime(30);
        s.acknowledge(seq);
        vi.advanceTimersByTime(40);
      }
      expect(s.syncs).toBe(0);
      // The server away for 3 s: nothing is acknowledged, so the batches are synced about
      // once a second, never later than SyncMs after the oldest of them was written.
      for (let i = 0; i < 60; i++) {
        s.append(batch(r(1, 200 + i)));
        vi.advanceTimersByTime(50);
      }
      expect(s.syncs).toBeGreaterThanOrEqual(2);
      expect(s.syncs).toBeLessThanOrEqual(3);
      s.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
