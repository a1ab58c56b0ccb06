// bench:hub's split of the HostUpdated delay (bench/hub-split.mjs): server fan-out times
// matched with console receipts by the event's sample time.
import { describe, expect, it } from 'vitest';
import { hubDelaySplit, quantiles } from '../../bench/hub-split.mjs';

const iso = (ms: number) => new Date(ms).toISOString();
const frame = (target: string, ...args: unknown[]) => `${JSON.stringify({ type: 1, target, arguments: args })}\u001e`;

describe('bench:hub delay split', () => {
  it('takes quantiles as bench:hub prints them', () => {
    expect(quantiles([5, 1, 3, 2, 4])).toEqual({ n: 5, p50: 3, p99: 5, max: 5 });
    expect(quantiles([]).n).toBe(0);
  });

  it('splits each receipt at the server\'s times of the event it belongs to', () => {
    const t = 1_700_000_000_000;
    const fanouts = [
      { frame: frame('HostUpdated', '7', iso(t)), connections: 2, askedAt: t + 40, firstWriteAt: t + 41, lastWriteAt: t + 60 },
      { frame: frame('HostUpdated', '7', iso(t + 1000)), connections: 2, askedAt: t + 1030, firstWriteAt: t + 1032, lastWriteAt: t + 1050 },
      // Other events and empty fan-outs are not HostUpdated deliveries.
      { frame: frame('SessionsChanged'), connections: 2, askedAt: t + 5, firstWriteAt: t + 6, lastWriteAt: t + 7 },
      { frame: frame('HostUpdated', '8', iso(t + 500)), connections: 0, askedAt: t + 510, firstWriteAt: 0, lastWriteAt: 0 },
    ];
    const receipts = [
      t, t + 45, t + 46, // heard before the server's last write
      t, t + 70, t + 72,
      t + 1000, t + 1060, t + 1061,
      t + 2000, t + 2090, t + 2091, // no fan-out recorded for it: counted, not split
    ];
    const split = hubDelaySplit(fanouts, receipts);
    expect(split.events).toBe(2);
    expect(split.unmatched).toBe(1);
    expect(split.ingest).toEqual({ n: 2, p50: 40, p99: 40, max: 40 });
    expect(split.firstWrite.max).toBe(2);
    expect(split.lastWrite).toEqual({ n: 2, p50: 20, p99: 20, max: 20 });
    expect(split.toMessage).toEqual({ n: 3, p50: 30, p99: 30, max: 30 });
    expect(split.afterLastWrite.p50).toBe(10);
    expect(quantiles([-15, 10, 10]).p50).toBe(split.afterLastWrite.p50);
    expect(split.afterLastWrite.max).toBe(10);
    expect(split.parse).toEqual({ n: 4, p50: 1, p99: 2, max: 2 });
    expect(split.total).toEqual({ n: 4, p50: 72, p99: 91, max: 91 });
  });
});
