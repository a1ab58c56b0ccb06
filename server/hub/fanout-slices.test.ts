// A fan-out to many connections is written a slice of connections at a time, with the event
// loop's waiting I/O served between slices (docs/hub.md "5,000 consoles"), and every
// connection still gets every frame, in the order the sends were made.
import { afterEach, describe, expect, it } from 'vitest';
import { createHub, type Hub } from './hub.js';
import { completionResultFrame, invocationFrame, RECORD_SEPARATOR } from './protocol.js';
import type { LongPollingTransport } from './transport-long-polling.js';

type Events = { Tick: [n: number] };

function connect(hub: Hub<string, Events>) {
  const c = hub.negotiate('someone', 1, 'owner');
  hub.attachLongPolling(c, 'someone');
  c.receive(`{"protocol":"json","version":1}${RECORD_SEPARATOR}`);
  const transport = c.transport as LongPollingTransport;
  void transport.poll(); // the first poll is the connect step
  void transport.poll(); // this one takes the handshake response
  return { c, transport };
}

/** What the next poll of a connection brings (frames already queued). */
async function polled(transport: LongPollingTransport): Promise<string> {
  return (await transport.poll().answer).body;
}

const turn = () => new Promise((r) => setImmediate(r));

describe('fan-out in slices', () => {
  const hubs: Hub<string, Events>[] = [];
  afterEach(async () => {
    for (const h of hubs.splice(0)) await h.close();
  });

  it('writes the first slice at once and the rest after the I/O waiting meanwhile', async () => {
    const hub = createHub<string, Events>({ methods: {} }, { fanoutSliceConnections: 2 });
    hubs.push(hub);
    const all = Array.from({ length: 5 }, () => connect(hub));

    expect(hub.clients.all.send('Tick', 1)).toBe(5);
    expect(all.map((x) => x.transport.hasUndelivered)).toEqual([true, true, false, false, false]);

    let ioBetween = false;
    setImmediate(() => (ioBetween = !all[4]!.transport.hasUndelivered));
    for (let i = 0; i < 3; i++) await turn();
    expect(ioBetween).toBe(true);
    expect(all.map((x) => x.transport.hasUndelivered)).toEqual([true, true, true, true, true]);
  });

  it('keeps the order of sends on every connection, a small send queued behind a large one', async () => {
    const hub = createHub<string, Events>({ methods: {} }, { fanoutSliceConnections: 2 });
    hubs.push(hub);
    const all = Array.from({ length: 5 }, () => connect(hub));
    hub.groups.add(all[4]!.c.id, 'last');

    hub.clients.all.send('Tick', 1);
    hub.clients.group('last').send('Tick', 2);
    hub.clients.all.send('Tick', 3);
    for (let i = 0; i < 10; i++) await turn();

    const frames = (...n: number[]) => n.map((k) => invocationFrame('Tick', [k])).join('');
    expect(await polled(all[0]!.transport)).toBe(frames(1, 3));
    expect(await polled(all[4]!.transport)).toBe(frames(1, 2, 3));
  });

  it('a frame sent to one connection (a completion, a ping) waits for the fan-out frames it is still owed', async () => {
    const hub = createHub<string, Events>({ methods: {} }, { fanoutSliceConnections: 2 });
    hubs.push(hub);
    const all = Array.from({ length: 5 }, () => connect(hub));
    hub.clients.all.send('Tick', 1);
    const completion = completionResultFrame('1', 'done');
    all[4]!.c.send(completion);
    all[0]!.c.send(completion);
    for (let i = 0; i < 5; i++) await turn();
    expect(await polled(all[4]!.transport)).toBe(invocationFrame('Tick', [1]) + completion);
    expect(await polled(all[0]!.transport)).toBe(invocationFrame('Tick', [1]) + completion);
  });

  it('skips a connection that closed before its slice, and nothing is written after the hub closed', async () => {
    const hub = createHub<string, Events>({ methods: {} }, { fanoutSliceConnections: 2 });
    hubs.push(hub);
    const all = Array.from({ length: 4 }, () => connect(hub));
    hub.clients.all.send('Tick', 1);
    all[3]!.c.transportClosed();
    await turn();
    await turn();
    expect(all[3]!.transport.hasUndelivered).toBe(false);
    expect(all[2]!.transport.hasUndelivered).toBe(true);

    hub.clients.all.send('Tick', 2);
    await hub.close();
    await turn();
    await turn();
    // The Close frame is the last thing each connection got.
    expect((await polled(all[2]!.transport)).endsWith(`{"type":7,"error":"The server is shutting down.","allowReconnect":true}${RECORD_SEPARATOR}`)).toBe(true);
  });

  it('a send within one slice is written before send() returns', () => {
    const hub = createHub<string, Events>({ methods: {} });
    hubs.push(hub);
    const all = Array.from({ length: 3 }, () => connect(hub));
    hub.clients.all.send('Tick', 1);
    expect(all.every((x) => x.transport.hasUndelivered)).toBe(true);
  });
});
