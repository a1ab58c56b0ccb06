// Retention tiers (retention.ts): expiry deletes raw samples and 1-minute rows older than
// their tiers and nothing else, and DataPointBuckets then answers those older ranges from the
// rollups that hold them, as it answered them before at the rollups' period. Through dist/
// (the ingest pipeline runs a Piscina worker): npm run build:server first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestPipeline, DomainEventBus, Store } from '../../test/support/built.js';
import { insertActiveSession } from '../ingest/testing/sessions.js';
import type * as RetentionModule from './retention.js';
import type * as SettingsModule from './retention-settings.js';
import type * as BucketsModule from '../data/buckets.js';
import { openTestStore } from './testing/test-store.js';
import { countRollupRows, countSamples } from './testing/stored-rows.js';

const dist = (p: string) => new URL(`../../dist/${p}`, import.meta.url).href;
// The same module instances as the built store's (the expired tiers are kept per store there).
const { expireOnce, horizonsAt } = (await import(dist('server/store/retention.js'))) as typeof RetentionModule;
const { retentionDays, storeRetentionDays } = (await import(dist('server/store/retention-settings.js'))) as typeof SettingsModule;
const { dataPointBuckets } = (await import(dist('server/data/buckets.js'))) as typeof BucketsModule;

const DAY = 86_400_000;
const HOPS = 2;
const T0 = Date.UTC(2026, 2, 1);
const DAYS = 10;
const NOW = T0 + DAYS * DAY;

describe('retention tiers', () => {
  let dir: string;
  let store: Awaited<ReturnType<typeof Store.open>>;
  let sid: number;
  let principal: { userId: number; accountId: number; username: string; isRoot: boolean; claims: string[] };
  const buckets = (from: number, to: number, periodSeconds: number) =>
    dataPointBuckets(store, principal, { targetId: `${sid}_h_${HOPS}`, startTime: from, endTime: to, periodSeconds, includeJitter: false });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-retention-'));
    store = await openTestStore(dir);
    const account = await store.one<{ id: number }>(`INSERT INTO accounts (name) VALUES ('r') RETURNING id`);
    principal = { userId: 0, accountId: account!.id, username: 'r', isRoot: true, claims: [] };
    sid = await insertActiveSession(store, account!.id, 'retention', T0, { intervalMs: 10_000 });
    const ingest = new IngestPipeline(store, new DomainEventBus());
    await ingest.init();
    ingest.openSession(sid, account!.id);
    let seed = 5;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
    for (let day = 0; day < DAYS; day++) {
      const n = (DAY / 10_000) * HOPS;
      const time = new Float64Array(n);
      const hop = new Int32Array(n);
      const latency = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        time[i] = T0 + day * DAY + Math.floor(i / HOPS) * 10_000;
        hop[i] = (i % HOPS) + 1;
        latency[i] = rnd() < 0.03 ? -4194305 : 2 + rnd() * 20;
      }
      await ingest.addBatch({ length: n, session: new Int32Array(n).fill(sid), time, hop, latency });
    }
    await ingest.finishSession(sid);
    await ingest.close();
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('deletes raw samples and 1-minute rows older than their tiers, keeps everything newer and the coarser rows', async () => {
    const days = { rawDays: 3, minuteDays: 6 };
    const h = horizonsAt(NOW, days);
    expect(h.raw).toBe(NOW - 3 * DAY);
    const samplesKept = await countSamples(store, { from: h.raw });
    const samplesOld = await countSamples(store, { to: h.raw });
    const minuteKept = await countRollupRows(store, 60_000, { from: h.minute });
    const coarse = await countRollupRows(store, 'coarse');
    const at60Before = await buckets(T0 + 5 * DAY, T0 + 5 * DAY + 7_200_000, 60);
    const at600Before = await buckets(T0 + DAY, T0 + 2 * DAY, 600);
    const tenSecondsBefore = await buckets(NOW - DAY, NOW - DAY + 600_000, 10);

    const report = await expireOnce(store, NOW, days);
    expect(report.samples).toBe(samplesOld);
    expect(report.minuteRows).toBeGreaterThan(0);
    expect(await countSamples(store, { to: h.raw })).toBe(0);
    expect(await countSamples(store)).toBe(samplesKept);
    expect(await countRollupRows(store, 60_000, { to: h.minute })).toBe(0);
    expect(await countRollupRows(store, 60_000)).toBe(minuteKept);
    expect(await countRollupRows(store, 'coarse')).toBe(coarse);

    // Older ranges come from the tier that holds them, with its period: 10 s asked 5 days
    // back is answered from 1-minute rows, 60 s asked 9 days back from 10-minute rows.
    const at10After = await buckets(T0 + 5 * DAY, T0 + 5 * DAY + 7_200_000, 10);
    expect(at10After.Points.length).toBe(120);
    expect(at10After).toEqual(at60Before);
    expect(await buckets(T0 + DAY, T0 + 2 * DAY, 60)).toEqual(at600Before);
    // Within the raw tier nothing changed.
    expect(await buckets(NOW - DAY, NOW - DAY + 600_000, 10)).toEqual(tenSecondsBefore);
    // A second run has nothing left to do.
    expect((await expireOnce(store, NOW, days)).transactions).toBe(0);
  });

  it('takes the days from the environment, else from the stored setting, else the defaults', async () => {
    const none = { retentionRawDays: undefined, retentionMinuteDays: undefined };
    expect(await retentionDays(store, none)).toEqual({ rawDays: 30, minuteDays: 400 });
    await storeRetentionDays(store, { rawDays: 14 });
    expect(await retentionDays(store, none)).toEqual({ rawDays: 14, minuteDays: 400 });
    expect(await retentionDays(store, { retentionRawDays: 7, retentionMinuteDays: 90 })).toEqual({ rawDays: 7, minuteDays: 90 });
  });
});

describe('ingest paused for a full volume', () => {
  it('refuses samples with the reason, writes nothing, and takes them again once resumed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hopwatch-pause-'));
    const store = await openTestStore(dir);
    const ingest = new IngestPipeline(store, new DomainEventBus());
    try {
      await ingest.init();
      const account = await store.one<{ id: number }>(`INSERT INTO accounts (name) VALUES ('p') RETURNING id`);
      const sid = await insertActiveSession(store, account!.id, 'paused', T0);
      ingest.openSession(sid, account!.id);
      const batch = () => ({ length: 2, session: Int32Array.of(sid, sid), time: Float64Array.of(T0, T0), hop: Int32Array.of(1, 2), latency: Float64Array.of(3, 4) });
      ingest.pauseFor('Ingest is paused: the data volume is 98.5% full');
      await expect(ingest.addBatch(batch())).rejects.toThrow(/data volume is 98.5% full/);
      ingest.add(sid, T0 + 1000, 1, 5);
      await expect(ingest.commit()).rejects.toThrow(/data volume/);
      expect(await countSamples(store)).toBe(0);
      ingest.pauseFor(undefined);
      await ingest.addBatch(batch());
      expect(await countSamples(store)).toBe(2);
    } finally {
      await ingest.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
