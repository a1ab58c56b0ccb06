import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Spool, type SpooledBatch } from './spool.js';

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
  const t = s.readText(seq);
  return t ? [JSON.parse(t.text) as SpooledBatch] : [];
});
const r = (traceId: number, time: number) => ({ traceId, time, hops: [{ ttl: 1, address: '10.0.0.1', name: null, rtt: 1 }] });

describe('agent spool', () => {
  it('numbers batches, keeps them across a restart, and forgets them only when acknowledged', () => {
    const dir = tmp();
    const s = new Spool(dir);
    expect(s.append([r(1, 1)]).seq).toBe(1);
    expect(s.append([r(1, 2)]).seq).toBe(2);
    const again = new Spool(dir);
    expect(pending(again).map((b) => b.seq)).toEqual([1, 2]);
    expect(pending(again)[1].rounds).toEqual([r(1, 2)]);
    again.acknowledge(1);
    expect(pending(again).map((b) => b.seq)).toEqual([2]);
    again.acknowledge(2);
    // The numbering goes on after everything was acknowledged, also after a restart (past
    // the block of numbers the last run reserved: gaps are harmless, reuse would not be).
    const later = new Spool(dir).append([r(1, 3)]).seq;
    expect(later).toBeGreaterThan(2);
    expect(new Spool(dir).append([r(1, 4)]).seq).toBeGreaterThan(later);
  });

  it('continues after the server said what it committed', () => {
    const s = new Spool(tmp());
    s.advanceTo(41);
    expect(s.append([r(1, 1)]).seq).toBe(42);
  });

  it('drops the oldest batches first when full, and says so', () => {
    const lines: string[] = [];
    const s = new Spool(tmp(), { maxBytes: 250, maxAgeMs: 1e9 }, (m) => lines.push(m));
    for (let i = 1; i <= 5; i++) s.append([r(1, i)]);
    const kept = pending(s).map((b) => b.seq);
    expect(kept[kept.length - 1]).toBe(5);
    expect(kept[0]).toBeGreaterThan(1);
    expect(lines[0]).toMatch(/spool: dropped batch 1 \(spool full\)/);
  });
});
