import { describe, expect, it } from 'vitest';
import type { DataPoint, DataPointBuckets } from '../contract/data.js';
import { hopsOfBuckets } from './hop-figures.js';

const point = (latencies: (number | null)[], sent: number[], lost: number[]): DataPoint => ({
  Period: '2026-11-29T10:00:00.000Z',
  IsStartTrace: false,
  UnitNumber: 0,
  FirstLatency: null,
  LatencyMinimum: null,
  LatencyMaximum: null,
  Jitter: null,
  AverageLatency: null,
  LatencyCount: 0,
  HasNotParticipating: false,
  LostPacketCount: 0,
  SampleSetIndexStart: 0,
  SampleSetIndexEnd: 0,
  RouteBitMask: 0,
  RouteLength: latencies.length,
  RouteHostLatencies: latencies,
  RouteHostSentCount: sent,
  RouteHostLostCount: lost,
});
const buckets = (points: DataPoint[]): DataPointBuckets => ({ Points: points, FirstDatapoint: null, MostRecentDatapoint: null, Outages: [] });

describe("a hop's figures over the range, from the buckets", () => {
  it('sums loss over the buckets and averages latency over the answers', () => {
    const hops = hopsOfBuckets(
      buckets([point([10, null, 30], [10, 10, 10], [0, 10, 5]), point([20, null, 40], [10, 10, 10], [0, 10, 0])]),
      new Map([[1, { Hosts: [{ Address: '10.0.0.1', Samples: 20, SharePercent: 100, Mpls: [], Asn: null, AsName: null, Country: null, Special: 'Private', QuotedDscp: null, NatDetected: false }] }]]),
      new Map([[1, 'r1.example']]),
    );
    expect(hops.map((h) => [h.hop, h.lossPercent, h.answered, h.latencyMs])).toEqual([
      [1, 0, true, 15],
      [2, 100, false, null],
      // 5 answers at 30 ms and 10 at 40 ms.
      [3, 25, true, (5 * 30 + 10 * 40) / 15],
    ]);
    expect(hops[0].hosts.map((h) => h.Address)).toEqual(['10.0.0.1']);
    expect(hops[0].name).toBe('r1.example');
    expect(hops[1].hosts).toEqual([]);
  });

  it('has no loss to judge at a hop that sent nothing', () => {
    const [h] = hopsOfBuckets(buckets([point([null], [0], [0])]), new Map(), new Map());
    expect(Number.isNaN(h.lossPercent)).toBe(true);
    expect(h.answered).toBe(false);
  });
});
