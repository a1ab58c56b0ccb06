// A fan-out's frame written straight to many WebSocket sockets on several threads (the addon
// server/hub/native/fanout.c, built by npm run build): the bytes are ws's own framing, every
// connection gets every frame whole and in the order sent, and a socket that takes only part
// of a frame gets the rest before anything later. Real sockets, real ws clients.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { DirectWriter, directWriterFromEnv, fanoutAddon, textFrame } from './direct-writes.js';
import { createHub, type Hub } from './hub.js';
import { invocationFrame, RECORD_SEPARATOR } from './protocol.js';

/** ws's own framing (exported by ws, not declared by its types). */
const { Sender } = createRequire(import.meta.url)('ws') as {
  Sender: { frame(data: Buffer, options: { fin: boolean; opcode: number; mask: boolean; readOnly: boolean; rsv1: boolean }): Buffer[] };
};

type Events = { Tick: [n: number, pad: string] };

const addon = fanoutAddon();

/** A DirectWriter that remembers what each of its calls wrote. */
class CountingWriter extends DirectWriter {
  readonly calls: { frameLength: number; written: number[] }[] = [];
  override writeAll(fds: readonly number[], frame: Buffer): Int32Array {
    const written = super.writeAll(fds, frame);
    this.calls.push({ frameLength: frame.length, written: Array.from(written.subarray(0, fds.length)) });
    return written;
  }
}

interface Setup {
  hub: Hub<string, Events>;
  server: Server;
  port: number;
}

async function serve(writer: DirectWriter | undefined, options: { slice?: number; maxBufferedBytes?: number } = {}): Promise<Setup> {
  const hub = createHub<string, Events>(
    { methods: {} },
    { directWriter: writer, fanoutSliceConnections: options.slice, limits: { maxBufferedBytes: options.maxBufferedBytes ?? 4 * 1024 * 1024, maxMessageBytes: 64 * 1024 * 1024 } },
  );
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const server = createServer();
  server.on('upgrade', (request, socket, head) => {
    wss.handleUpgrade(request, socket, head, (ws) => {
      const c = hub.negotiate('someone', 1, 'owner');
      hub.attachWebSocket(c, ws, 'someone');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { hub, server, port: (server.address() as AddressInfo).port };
}

/** A client connected and handshaken; `texts` collects every record after the handshake's. */
async function client(port: number): Promise<{ ws: WebSocket; texts: string[] }> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/`, { perMessageDeflate: false, maxPayload: 64 * 1024 * 1024 });
  const texts: string[] = [];
  let handshaken: () => void;
  const ready = new Promise<void>((r) => (handshaken = r));
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    expect(isBinary).toBe(false);
    for (const record of data.toString('utf8').split(RECORD_SEPARATOR).filter(Boolean)) {
      if (record === '{}') handshaken();
      else texts.push(record + RECORD_SEPARATOR);
    }
  });
  await once(ws, 'open');
  ws.send(`{"protocol":"json","version":1}${RECORD_SEPARATOR}`);
  await ready;
  return { ws, texts };
}

/** Waits for check to hold; a frame lost or cut would leave it false, so this fails after 20 s. */
async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('the clients did not get every frame within 20 s');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('textFrame', () => {
  it('frames a payload as ws itself does (unmasked text frame, every length form)', () => {
    for (const n of [0, 1, 125, 126, 65_535, 65_536, 200_000]) {
      const payload = Buffer.alloc(n, 0x61);
      const ours = textFrame(payload);
      const theirs = Buffer.concat(Sender.frame(payload, { fin: true, opcode: 1, mask: false, readOnly: true, rsv1: false }));
      expect(ours.equals(theirs)).toBe(true);
    }
  });
});

describe.skipIf(!addon)('direct writes (the addon built)', () => {
  const open: { setup: Setup; clients: WebSocket[] }[] = [];
  afterEach(async () => {
    for (const { setup, clients } of open.splice(0)) {
      for (const ws of clients) ws.terminate();
      await setup.hub.close();
      setup.server.close();
    }
  });

  it('is off with HOPWATCH_HUB_DIRECT_WRITES=0', () => {
    expect(directWriterFromEnv({ HOPWATCH_HUB_DIRECT_WRITES: '0' })).toBeUndefined();
    expect(directWriterFromEnv({})?.threads).toBeGreaterThanOrEqual(1);
  });

  it('delivers every frame whole and in order to every connection, slices and threads', async () => {
    const writer = new CountingWriter(addon!, 3);
    const setup = await serve(writer, { slice: 100 });
    const clients = await Promise.all(Array.from({ length: 300 }, () => client(setup.port)));
    open.push({ setup, clients: clients.map((c) => c.ws) });
    // Every fifth connection is also in a group, whose sends go between the fan-outs to all.
    const ids = [...(setup.hub as unknown as { live: Set<{ id: string }> }).live].map((c) => c.id);
    expect(ids.length).toBe(300);
    ids.forEach((id, i) => i % 5 === 0 && setup.hub.groups.add(id, 'fifth'));

    const expected = (member: boolean) => {
      const frames: string[] = [];
      for (let n = 0; n < 30; n++) {
        frames.push(invocationFrame('Tick', [n, 'x'.repeat(n * 37)]));
        if (member && n % 3 === 0) frames.push(invocationFrame('Tick', [-n, '']));
      }
      return frames;
    };
    for (let n = 0; n < 30; n++) {
      expect(setup.hub.clients.all.send('Tick', n, 'x'.repeat(n * 37))).toBe(300);
      if (n % 3 === 0) expect(setup.hub.clients.group('fifth').send('Tick', -n, '')).toBe(60);
    }
    await until(() => clients.every((c) => c.texts.length >= 30));
    await until(() => clients.filter((c) => c.texts.length === 40).length === 60);

    // Members (which client is which connection is the server's business) get the group's sends too.
    const members = clients.filter((c) => c.texts.some((t) => t.includes('[-')));
    expect(members.length).toBe(60);
    for (const c of clients) expect(c.texts).toEqual(expected(members.includes(c)));
    // The writes went through the addon, each whole (nothing here fills a socket).
    const direct = writer.calls.flatMap((c) => c.written.map((w) => w === c.frameLength));
    expect(direct.length).toBeGreaterThanOrEqual(30 * 300);
    expect(direct.every(Boolean)).toBe(true);
  });

  it('queues the rest of a frame a full socket took only part of, before the frames after it', async () => {
    const writer = new CountingWriter(addon!, 1);
    const setup = await serve(writer, { maxBufferedBytes: 256 * 1024 * 1024 });
    const reader = await client(setup.port);
    const stalled = await client(setup.port);
    open.push({ setup, clients: [reader.ws, stalled.ws] });
    // The stalled client stops reading: its socket buffers fill, so a write takes part of a frame.
    (stalled.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();

    const mb = 'y'.repeat(1024 * 1024);
    for (let n = 0; n < 24; n++) setup.hub.clients.all.send('Tick', n, mb);
    await until(() => reader.texts.length === 24);
    const short = writer.calls.flatMap((c) => c.written.filter((w) => w < c.frameLength));
    expect(short.length).toBeGreaterThan(0);

    (stalled.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    await until(() => stalled.texts.length === 24);
    const frames = Array.from({ length: 24 }, (_, n) => invocationFrame('Tick', [n, mb]));
    expect(reader.texts).toEqual(frames);
    expect(stalled.texts).toEqual(frames);
  });

  it('refuses arguments of the wrong kind instead of writing anywhere', () => {
    const writeAll = addon!.writeAll as (...a: unknown[]) => void;
    expect(() => writeAll([1, 2], 2, Buffer.alloc(1), new Int32Array(2), 1)).toThrow(TypeError);
    expect(() => writeAll(new Int32Array(1), 2, Buffer.alloc(1), new Int32Array(2), 1)).toThrow(/count/);
    expect(() => writeAll(new Int32Array(1), 1, 'text', new Int32Array(1), 1)).toThrow(/Buffer/);
  });
});
