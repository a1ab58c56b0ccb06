// bench:soak's arithmetic (bench/soak-figures.mjs): the predicted database size, the slope per
// hour and the goals it prints met or not.
import { describe, expect, it } from 'vitest';
import { RowsPerHopMinute, StoredBytes, predictedDatabaseBytes, slopePerHour, soakGoals, unpackedShare, type SoakPoint } from '../../bench/soak-figures.mjs';

const Day = 86_400_000;

describe('bench:soak figures', () => {
  // 2026-11-29 14:00 UTC: the day began 14 hours before, so yesterday is packed.
  const afternoon = Date.UTC(2026, 10, 29, 14);
  const { raw, unpacked, rollupRow } = StoredBytes;
  // A hop sample's share of the rollup rows at 1 s: a sixtieth of its hop's minute.
  const minute = (RowsPerHopMinute.minute * rollupRow) / 60;
  const coarse = (RowsPerHopMinute.coarse * rollupRow) / 60;
  const at1s = { intervalMs: 1000 };

  it("counts rollup rows per hop and minute, so a hop sample's share follows its trace's interval", () => {
    // bench:store's data (2.5 s): its measured 0.90 B of rollups a hop sample, 0.81 of them 1-minute rows.
    const at = (intervalMs: number) => predictedDatabaseBytes({ baseBytes: 0, samples: 1_000_000, elapsedMs: 3_600_000, now: afternoon, retention: { rawDays: 30, minuteDays: 400 }, intervalMs }) / 1_000_000 - raw - unpacked;
    expect(at(2500)).toBeCloseTo(0.9, 2);
    expect((RowsPerHopMinute.minute * rollupRow * 2.5) / 60).toBeCloseTo(0.81, 2);
    // At 1 s a hop's minute holds 60 samples instead of 24: the same rows, 2.5 times less a sample.
    expect(at(1000)).toBeCloseTo(0.9 / 2.5, 2);
  });

  it('predicts every hop sample at full cost, unpacked, while the run is younger than the raw retention and its day', () => {
    const p = predictedDatabaseBytes({ baseBytes: 1000, samples: 1_000_000, elapsedMs: 3_600_000, now: afternoon, retention: { rawDays: 30, minuteDays: 400 }, ...at1s });
    expect(p).toBeCloseTo(1000 + 1_000_000 * (raw + unpacked + minute + coarse));
  });

  it("counts the samples of the days the packer has not reached (today's, and yesterday's until 3 hours after midnight) at their arrival-order cost", () => {
    expect(unpackedShare(afternoon, 28 * 3_600_000)).toBeCloseTo(14 / 28);
    expect(unpackedShare(Date.UTC(2026, 10, 29, 2), 28 * 3_600_000)).toBeCloseTo(26 / 28);
    expect(unpackedShare(afternoon, 3_600_000)).toBe(1);
    const p = predictedDatabaseBytes({ baseBytes: 0, samples: 2800, elapsedMs: 28 * 3_600_000, now: afternoon, retention: { rawDays: 30, minuteDays: 400 }, ...at1s });
    expect(p).toBeCloseTo(2800 * (raw + minute + coarse) + 1400 * unpacked);
  });

  it('keeps only rawDays of raw samples once the run is older, and every rollup within minuteDays', () => {
    const p = predictedDatabaseBytes({ baseBytes: 0, samples: 100, elapsedMs: 10 * Day, now: afternoon, retention: { rawDays: 5, minuteDays: 400 }, ...at1s });
    expect(p).toBeCloseTo(50 * raw + 100 * (14 / 240) * unpacked + 100 * minute + 100 * coarse);
  });

  it('fits the slope per hour of points given in minutes', () => {
    expect(slopePerHour([[0, 10], [30, 12], [60, 14]])).toBeCloseTo(4);
    expect(slopePerHour([[60, 100], [120, 100]])).toBe(0);
    expect(slopePerHour([[60, 100]])).toBe(0);
  });

  const steady = (minutes: number, over: Partial<SoakPoint> = {}): SoakPoint => ({ minutes, rss: 300, heap: 80, fds: 70, file: 105, predicted: 100, delayP99: 20, ...over });

  it('prints every goal met for a flat run with the file within 10%', () => {
    const goals = soakGoals([steady(60), steady(70), steady(80), steady(90)]);
    expect(goals.map((g) => g.met)).toEqual([true, true, true, true, true]);
  });

  it('prints no goal met from fewer than two points', () => {
    expect(soakGoals([steady(60)]).every((g) => !g.met && /not measured/.test(g.figure))).toBe(true);
  });

  it('prints each goal not met when its figure grows or strays', () => {
    const run = [60, 70, 80, 90, 100, 110, 120].map((m, i) => steady(m, { rss: 300 + i * 1, heap: 80 + i * 0.5, fds: 70 + i, file: 100, predicted: 80, delayP99: 20 + i * 3 }));
    const goals = soakGoals(run);
    expect(goals.map((g) => [g.goal.split(' ')[0], g.met])).toEqual([
      ['RSS', false], // 6 MB/hour
      ['V8', true], // 3 MB/hour
      ['open', false], // 6 more descriptors
      ['DuckDB', false], // 125%
      ['event-loop', false], // 18 ms rise on a 29 ms median
    ]);
  });

  it("judges descriptors without the connections the clients hold open at that moment", () => {
    // The clients' idle keep-alive connections come and go (50 to 90 sockets): flat.
    const swinging = [60, 70, 80, 90, 100, 110, 120].map((m, i) => steady(m, { fds: 40 + [50, 90, 55, 85, 60, 88, 70][i], clients: [50, 90, 55, 85, 60, 88, 70][i] }));
    expect(soakGoals(swinging)[2]).toMatchObject({ met: true });
    // The same clients, and one more descriptor of the server's own every 10 minutes: growth.
    const leaking = swinging.map((p, i) => ({ ...p, fds: p.fds + i }));
    expect(soakGoals(leaking)[2]).toMatchObject({ met: false });
  });
});
