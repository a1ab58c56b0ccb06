// hopHostsOfMany reads its range's minutes and the details from DetailsRestatedMs before it
// (issue 45 item 7: a live read scanned the whole table), and still finds older details: rows
// stored before the ingest restated them hourly, or imported.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore } from '../store/testing/test-store.js';
import type { Store } from '../store/db.js';
import { hopHostsOfMany } from './repository.js';
import { hopDetailsOfMany } from './service.js';
import { HopHostMinuteMs as M, type HopHostRow } from './tally.js';

const t0 = 1_700_000_040_000; // a minute start
let dir: string;
let store: Store;

/** One row a minute of `address` at `hop` over [from, to) minutes, `details` at the minutes given. */
async function rows(sessionId: number, hop: number, address: string, from: number, to: number, details: Record<number, string>) {
  for (let m = from; m < to; m++) {
    await store.run('INSERT INTO hop_hosts (session_id, hop, address, minute, answers, details) VALUES ($1, $2, $3, $4, $5, $6)', [
      sessionId,
      hop,
      address,
      t0 + m * M,
      60,
      details[m] ?? null,
    ]);
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hopwatch-hop-hosts-'));
  store = await openTestStore(dir);
  // Session 1, hop 1: details once, five hours before the range (stored before the hourly rule).
  await rows(1, 1, '10.0.0.1', 0, 310, { 0: 'first' });
  // Hop 2: restated 40 minutes before the range; a change after the range is not its answer.
  await rows(1, 2, '10.0.0.2', 0, 310, { 0: 'b-old', 250: 'b-restated', 305: 'b-after' });
  // Hop 3: two addresses; one changed inside the range.
  await rows(1, 3, '10.0.0.3', 280, 300, { 280: 'c' });
  await rows(1, 3, '10.0.0.33', 292, 296, { 292: 'cc-1', 294: 'cc-2' });
  // Session 2: its own details, ranges of its own.
  await rows(2, 1, '10.9.0.1', 0, 20, { 0: 'two' });
}, 60_000);

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('hopHostsOfMany', () => {
  it('counts the range only and gives each address its latest details up to the range end, however old', async () => {
    const got = await hopHostsOfMany(store, [
      { sessionId: 1, from: t0 + 290 * M + 30_000, to: t0 + 300 * M },
      { sessionId: 2, from: t0 + 10 * M, to: t0 + 20 * M },
    ]);
    expect(got.get(1)).toEqual([
      { hop: 1, address: '10.0.0.1', answers: 600, details: 'first' },
      { hop: 2, address: '10.0.0.2', answers: 600, details: 'b-restated' },
      { hop: 3, address: '10.0.0.3', answers: 600, details: 'c' },
      { hop: 3, address: '10.0.0.33', answers: 240, details: 'cc-2' },
    ]);
    expect(got.get(2)).toEqual([{ hop: 1, address: '10.9.0.1', answers: 600, details: 'two' }]);
  });

  it('one hop only, and a range ending before a change', async () => {
    const got = await hopHostsOfMany(store, [{ sessionId: 1, from: t0 + 292 * M, to: t0 + 294 * M, hop: 3 }]);
    expect(got.get(1)).toEqual([
      { hop: 3, address: '10.0.0.3', answers: 120, details: 'c' },
      { hop: 3, address: '10.0.0.33', answers: 120, details: 'cc-1' },
    ]);
  });

  it("takes the latest details from the ingest's memory when it has them from before the range end", async () => {
    const memory = new Map([
      ['1 10.0.0.1', { details: 'in-memory', minute: t0 + 299 * M }],
      ['2 10.0.0.2', { details: 'after-the-range', minute: t0 + 300 * M }],
    ]);
    const got = await hopHostsOfMany(store, [{ sessionId: 1, from: t0 + 290 * M, to: t0 + 300 * M }], (id) => (id === 1 ? memory : undefined));
    expect(got.get(1)?.map((r) => [r.hop, r.address, r.details])).toEqual([
      [1, '10.0.0.1', 'in-memory'],
      [2, '10.0.0.2', 'b-restated'], // memory's text is from after the range: the store's
      [3, '10.0.0.3', 'c'],
      [3, '10.0.0.33', 'cc-2'],
    ]);
  });
});

describe('hopDetailsOfMany', () => {
  it("counts the ingest's rows once while a flush commits them, and the store's before them", async () => {
    // Session 2's minutes 0-19 are stored; memory holds 18-20: 18 and 19 committed meanwhile
    // (a flush's rows stay in memory until it returns), 20 the open minute.
    const held: HopHostRow[] = [18, 19, 20].map((m) => ({ sessionId: 2, hop: 1, address: '10.9.0.1', minute: t0 + m * M, answers: 7, details: '{}', open: m === 20 }));
    const got = await hopDetailsOfMany(store, [{ sessionId: 2, from: t0 + 10 * M, to: t0 + 21 * M }], { openHopHosts: (id) => (id === 2 ? held : []) });
    expect(got.get(2)?.get(1)?.Hosts.map((h) => [h.Address, h.Samples])).toEqual([['10.9.0.1', 8 * 60 + 3 * 7]]);
    // Restarted within minute 19, which the store holds a part of: memory's open minute is
    // counted beside it (the store has none of its answers from this process).
    const reopened: HopHostRow[] = [{ sessionId: 2, hop: 1, address: '10.9.0.1', minute: t0 + 19 * M, answers: 7, details: '{}', open: true }];
    const afterRestart = await hopDetailsOfMany(store, [{ sessionId: 2, from: t0 + 10 * M, to: t0 + 21 * M }], { openHopHosts: () => reopened });
    expect(afterRestart.get(2)?.get(1)?.Hosts[0].Samples).toBe(10 * 60 + 7);
    // Nothing in memory: the store alone.
    const stored = await hopDetailsOfMany(store, [{ sessionId: 2, from: t0 + 10 * M, to: t0 + 21 * M }], { openHopHosts: () => [] });
    expect(stored.get(2)?.get(1)?.Hosts[0].Samples).toBe(10 * 60);
  });
});
