import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { FanoutMark, type FanoutTimes, fanoutProbeFromEnv } from './fanout-probe.js';
import { createHub, type Hub } from './hub.js';
import { invocationFrame, RECORD_SEPARATOR } from './protocol.js';

type Events = { Tick: [n: number] };

/** A long-polling connection of the hub, handshaken (no server needed: the transport is in memory). */
function connect(hub: Hub<string, Events>) {
  const c = hub.negotiate('someone', 1, 'owner');
  hub.attachLongPolling(c, 'someone');
  c.receive(`{"protocol":"json","version":1}${RECORD_SEPARATOR}`);
  return c;
}

describe('fan-out probe (bench:hub, HOPWATCH_HUB_FANOUT_PROBE)', () => {
  const hubs: Hub<string, Events>[] = [];
  afterEach(async () => {
    for (const h of hubs.splice(0)) await h.close();
    performance.clearMarks(FanoutMark);
  });

  it('records each send: its frame, how many connections it reached, and its times in order', () => {
    const seen: FanoutTimes[] = [];
    const hub = createHub<string, Events>({ methods: {} }, { fanoutProbe: (t) => seen.push(t) });
    hubs.push(hub);
    const a = connect(hub);
    const b = connect(hub);
    connect(hub);
    hub.groups.add(a.id, 'g');
    hub.groups.add(b.id, 'g');

    expect(hub.clients.group('g').send('Tick', 7)).toBe(2);
    expect(hub.clients.group('nobody').send('Tick', 8)).toBe(0);

    expect(seen.map(({ frame, connections }) => ({ frame, connections }))).toEqual([
      { frame: invocationFrame('Tick', [7]), connections: 2 },
      { frame: invocationFrame('Tick', [8]), connections: 0 },
    ]);
    const [t] = seen;
    expect(t!.askedAt).toBeGreaterThan(0);
    expect(t!.firstWriteAt).toBeGreaterThanOrEqual(t!.askedAt);
    expect(t!.lastWriteAt).toBeGreaterThanOrEqual(t!.firstWriteAt);
    expect(seen[1]!.firstWriteAt).toBe(0);
  });

  it('is off unless the environment asks for it; on, it leaves performance marks', () => {
    expect(fanoutProbeFromEnv({})).toBeUndefined();
    expect(fanoutProbeFromEnv({ HOPWATCH_HUB_FANOUT_PROBE: '0' })).toBeUndefined();
    const probe = fanoutProbeFromEnv({ HOPWATCH_HUB_FANOUT_PROBE: '1' })!;
    const hub = createHub<string, Events>({ methods: {} }, { fanoutProbe: probe });
    hubs.push(hub);
    connect(hub);
    hub.clients.all.send('Tick', 1);
    const marks = performance.getEntriesByName(FanoutMark);
    expect(marks).toHaveLength(1);
    expect((marks[0] as PerformanceMark).detail).toMatchObject({ frame: invocationFrame('Tick', [1]), connections: 1 });
  });

  it('a hub without a probe records nothing', () => {
    const hub = createHub<string, Events>({ methods: {} });
    hubs.push(hub);
    connect(hub);
    hub.clients.all.send('Tick', 1);
    expect(performance.getEntriesByName(FanoutMark)).toHaveLength(0);
  });
});
