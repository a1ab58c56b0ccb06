import { describe, expect, it } from 'vitest';
import { LatencyCode, SpecialLatencyBase } from '../../engine/latency-codes.js';
import type { SessionCarry } from './worker.js';
import type { RawPending } from './session-rollup-state.js';
import { emptyRollupRows, type RollupRows } from '../rollups/rows.js';
import { ceilTo, floorTo } from '../rollups/levels.js';

// The built worker: its kernels load from dist/wasm (npm test builds first).
const { prepare, prepareFlush, rollup } = (await import(new URL('../../dist/server/ingest/worker.js', import.meta.url).href)) as typeof import('./worker.js');

const MINUTE = 60_000;
const T0 = 1_700_000_000_000 - (1_700_000_000_000 % MINUTE);

/** Rounds of `hops` hops every 2.5 s for `minutes` minutes, 5% timeouts. */
function rounds(minutes: number, hops: number, seed: number): RawPending {
  let x = seed;
  const rnd = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 4294967296;
  const n = (minutes * MINUTE) / 2500;
  const time = new Float64Array(n * hops);
  const hop = new Int32Array(n * hops);
  const latency = new Float64Array(n * hops);
  for (let r = 0, i = 0; r < n; r++) {
    for (let h = 1; h <= hops; h++, i++) {
      time[i] = T0 + r * 2500 + 7;
      hop[i] = h;
      // Whole microseconds, as prepare keeps them (latency-micros.ts): the reference rolls the same values.
      latency[i] = rnd() < 0.05 ? LatencyCode.Timeout : Math.round((h * 2 + rnd() * 10) * 1000) / 1000;
    }
  }
  return { time, hop, latency };
}

const slice = (r: RawPending, a: number, b: number): RawPending => ({ time: r.time.slice(a, b), hop: r.hop.slice(a, b), latency: r.latency.slice(a, b) });

/** Rows as comparable records (NaN-safe). */
const records = (rows: RollupRows[]) =>
  rows.flatMap((r) =>
    Array.from(r.time, (t, i) => JSON.stringify([t, r.hop[i], r.count[i], r.lost[i], r.sum[i], r.min[i], r.max[i], r.first[i], r.lastValid[i], r.jitterSum[i], r.jitterPairs[i], r.last[i], r.flags[i]])),
  );

/** Feeds the parts through prepareFlush as the pipeline does, carrying state; the last flush finishes. */
function flushAll(parts: RawPending[]): RollupRows[][] {
  let carry: SessionCarry = {
    sessionId: 7,
    closedUntil: [NaN, NaN, NaN],
    maxTime: -Infinity,
    finishing: false,
    pending: slice(rounds(0, 1, 1), 0, 0),
    pendingRows: [emptyRollupRows(), emptyRollupRows()],
  };
  const out: RollupRows[][] = [[], [], []];
  parts.forEach((p, k) => {
    const n = p.time.length;
    const batch = { length: n, session: new Int32Array(n).fill(7), time: p.time.slice(), hop: p.hop.slice(), latency: p.latency.slice() };
    const finishing = k === parts.length - 1;
    const s = prepareFlush({ op: 'flush', batch, sessions: [{ ...carry, finishing }] }).sessions[0];
    s.rows.forEach((r, level) => out[level].push(r));
    carry = { sessionId: 7, closedUntil: s.closedUntil, maxTime: Math.max(carry.maxTime, s.last), finishing, pending: s.pending, pendingRows: s.pendingRows };
  });
  return out;
}

describe('prepareFlush', () => {
  const all = rounds(12, 4, 99);
  const minutes = rollup({ kind: 'samples', start: T0, end: T0 + 12 * MINUTE, resolution: MINUTE, ...all });
  const reference = records([minutes]);
  // The coarser levels, from the 1-minute rows (the last flush finishes: everything closes).
  // Each grid starts where the first sample falls (T0 is a whole minute, not a whole hour).
  const first = all.time[0];
  const tenEnd = ceilTo(T0 + 12 * MINUTE, 10 * MINUTE);
  const tens = rollup({ kind: 'rows', start: floorTo(first, 10 * MINUTE), end: tenEnd, resolution: 10 * MINUTE, rows: minutes });
  const hours = records([rollup({ kind: 'rows', start: floorTo(first, 60 * MINUTE), end: ceilTo(tenEnd, 60 * MINUTE), resolution: 60 * MINUTE, rows: tens })]);

  it('rolls rounds in time order up to the same rows however the flushes cut them', () => {
    const n = all.time.length;
    for (const cuts of [[n], [5, 200, 201, 700, n], [96, 192, 288, 384, n]]) {
      const parts = cuts.map((b, i) => slice(all, i ? cuts[i - 1] : 0, b));
      const levels = flushAll(parts);
      expect(records(levels[0])).toEqual(reference);
      expect(records(levels[1])).toEqual(records([tens]));
      expect(records(levels[2])).toEqual(hours);
    }
  });

  it('gives the same rows when a flush holds rounds out of order, within the grace period', () => {
    const n = all.time.length;
    const parts = [slice(all, 0, 300), slice(all, 300, 600), slice(all, 600, n)];
    // Reverse the middle flush's rounds (time order broken inside it) and move one of its
    // late rounds into the next flush (older than that flush's carried samples).
    const mid = parts[1];
    const idx = Array.from(mid.time, (_, i) => i).reverse();
    parts[1] = { time: Float64Array.from(idx, (i) => mid.time[i]), hop: Int32Array.from(idx, (i) => mid.hop[i]), latency: Float64Array.from(idx, (i) => mid.latency[i]) };
    const late = slice(parts[1], 0, 4); // the last round of the middle part, reversed to the front
    parts[1] = slice(parts[1], 4, parts[1].time.length);
    parts[2] = {
      time: Float64Array.of(...late.time, ...parts[2].time),
      hop: Int32Array.of(...late.hop, ...parts[2].hop),
      latency: Float64Array.of(...late.latency, ...parts[2].latency),
    };
    const sorted = (rows: string[]) => [...rows].sort();
    expect(sorted(records(flushAll(parts)[0]))).toEqual(sorted(reference));
  });
});

describe('prepareFlush with several sessions in a batch', () => {
  const carry = (sessionId: number): SessionCarry => ({
    sessionId,
    closedUntil: [NaN, NaN, NaN],
    maxTime: -Infinity,
    finishing: true,
    pending: { time: new Float64Array(0), hop: new Int32Array(0), latency: new Float64Array(0) },
    pendingRows: [emptyRollupRows(), emptyRollupRows()],
  });
  const sessions = [1, 2, 3].map((sid) => ({ sid, rows: rounds(3, 4, sid * 11) }));
  /** Each session flushed alone: its stored samples and rows. */
  const alone = sessions.map(({ sid, rows }) => {
    const n = rows.time.length;
    const f = prepareFlush({ op: 'flush', batch: { length: n, session: new Int32Array(n).fill(sid), ...slice(rows, 0, n) }, sessions: [carry(sid)] }).sessions[0];
    return { add: Array.from(f.add.time), rows: f.rows.map((r) => records([r])) };
  });
  /** The sessions' rows in one batch, in the given order of (session index, row index). */
  const together = (order: [number, number][]) => {
    const n = order.length;
    const batch = { length: n, session: new Int32Array(n), time: new Float64Array(n), hop: new Int32Array(n), latency: new Float64Array(n) };
    order.forEach(([k, i], j) => {
      const r = sessions[k].rows;
      batch.session[j] = sessions[k].sid;
      batch.time[j] = r.time[i];
      batch.hop[j] = r.hop[i];
      batch.latency[j] = r.latency[i];
    });
    const f = prepareFlush({ op: 'flush', batch, sessions: sessions.map(({ sid }) => carry(sid)) });
    return f.sessions.map((x) => ({ add: Array.from(x.add.time), rows: x.rows.map((r) => records([r])) }));
  };
  const n = sessions[0].rows.time.length;

  it('gives each session what it gets alone, whether its rows are one run or interleaved with the others', () => {
    const runs = sessions.flatMap((_, k) => Array.from({ length: n }, (__, i) => [k, i] as [number, number]));
    const interleaved = Array.from({ length: n }, (_, i) => sessions.map((__, k) => [k, i] as [number, number])).flat();
    expect(together(runs)).toEqual(alone);
    expect(together(interleaved)).toEqual(alone);
  });
});

describe('prepare', () => {
  it('keeps a measured latency to the microsecond it is stored as, and codes as they are', () => {
    const latency = Float64Array.of(12.3456789, 0.0004, 0.0005, 3000.0000004, LatencyCode.Timeout, LatencyCode.NotParticipating);
    const n = latency.length;
    const kept = prepare({ length: n, session: new Int32Array(n).fill(1), time: new Float64Array(n).fill(T0), hop: new Int32Array(n).fill(1), latency });
    expect(Array.from(kept.batch.latency)).toEqual([12.346, 0, 0.001, 3000, LatencyCode.Timeout, LatencyCode.NotParticipating]);
  });

  it('also writes the kept rows in the widths the samples table stores, so that the append hands out views (issue 45 item 2)', () => {
    const latency = Float64Array.of(12.3456789, -1, LatencyCode.Timeout, 7, LatencyCode.NotParticipating);
    const time = Float64Array.of(T0, T0 + 1, T0 + 2, NaN, 2 ** 40 + 0.4);
    const hop = Int32Array.of(1, 2, 255, 4, 30);
    const n = latency.length;
    const { batch } = prepare({ length: n, session: new Int32Array(n).fill(1), time, hop, latency });
    // Rows 1 (latency -1: no code) and 3 (no time) are dropped.
    expect(batch.length).toBe(3);
    const stored = batch.stored!;
    expect(stored.time).toBeInstanceOf(BigInt64Array);
    expect(Array.from(stored.time)).toEqual([BigInt(T0), BigInt(T0 + 2), 2n ** 40n]);
    expect(stored.hop).toBeInstanceOf(Int16Array);
    expect(Array.from(stored.hop)).toEqual([1, 255, 30]);
    expect(stored.latency).toBeInstanceOf(Int32Array);
    expect(Array.from(stored.latency)).toEqual([12346, LatencyCode.Timeout - SpecialLatencyBase, LatencyCode.NotParticipating - SpecialLatencyBase]);
  });
});
