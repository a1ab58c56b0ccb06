// Issue 39 item 8: batches whose sequence number or round times no agent can mean are refused
// with the reason (`refused`, the agent drops them), never stored and never a 1011 close (which
// makes an agent send the batch again, forever), and the link takes the good batches after
// them, on the same connection and after a reconnect. The agent is a hand-driven link
// connection (link-client.ts) on the simulated engine.
import { HttpTransportType, type HubConnection } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { connectHub } from '../security/support.js';
import { cmd } from './support.js';
import { enrolled, link, round, type LinkClient } from './link-client.js';

let hw: Appliance;
let cookie: string;
let h: HubConnection;

beforeAll(async () => {
  hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'pw', HOPWATCH_ENGINE: 'simulated' } });
  cookie = await signIn(hw.url, 'admin', 'pw');
  h = (await connectHub(hw, cookie, HttpTransportType.WebSockets)).connection;
}, 60_000);

afterAll(async () => {
  await h?.stop();
  await hw?.dispose();
});

/** A new agent running one trace, connected. */
async function agentWithTrace(name: string): Promise<{ c: LinkClient; session: number; id: number; credential: string }> {
  const { id, credential } = await enrolled(hw, cookie, name);
  const c = await link(hw, id, credential);
  const { ID: session } = await cmd<{ ID: number }>(hw.url, cookie, `/cmd/newtarget?target=127.0.0.1&traceInterval=1&agentID=${id}`);
  await c.next('start');
  return { c, session, id, credential };
}

/** The server's answer to a batch: its ack, or its refusal. */
async function answer(c: LinkClient, batch: { seq: number; rounds: unknown[] }): Promise<{ t: string; seq?: unknown; Error?: unknown }> {
  c.send({ t: 'batch', ...batch });
  return Promise.race([c.next(['ack', 'refused']), c.closed.then((x) => ({ t: 'closed', ...x }))]);
}

const samples = (session: number) => h.invoke<number>('GetSampleCountForSession', session);
const day = 24 * 3600 * 1000;

describe('the agent link refuses sequence numbers and times no agent means', () => {
  it('refuses a sequence number far past the last one, and goes on taking the next batches (after a reconnect too)', async () => {
    const a = await agentWithTrace('Seq');
    const t0 = Date.now() - 60_000;
    expect(await answer(a.c, { seq: 1, rounds: [round(a.session, t0)] })).toEqual({ t: 'ack', seq: 1 });
    const far = await answer(a.c, { seq: Number.MAX_SAFE_INTEGER, rounds: [round(a.session, t0 + 1000)] });
    expect(far).toMatchObject({ t: 'refused', seq: Number.MAX_SAFE_INTEGER, Error: expect.stringMatching(/skips .* sequence numbers/) });
    expect(await answer(a.c, { seq: 2, rounds: [round(a.session, t0 + 2000)] })).toEqual({ t: 'ack', seq: 2 });
    expect(await samples(a.session)).toBe(2);

    a.c.ws.close();
    await a.c.closed;
    const again = await link(hw, a.id, a.credential);
    expect(await answer(again, { seq: 3, rounds: [round(a.session, t0 + 3000)] })).toEqual({ t: 'ack', seq: 3 });
    expect(await samples(a.session)).toBe(3);
    again.ws.close();
  });

  it('refuses rounds dated before 2000 or more than a day ahead, with the reason, and stays usable', async () => {
    const a = await agentWithTrace('Times');
    const now = Date.now();
    const end = await answer(a.c, { seq: 1, rounds: [round(a.session, now - 5000), round(a.session, 8.64e15 - 1)] });
    expect(end).toMatchObject({ t: 'refused', seq: 1, Error: expect.stringMatching(/more than a day ahead/) });
    const ahead = await answer(a.c, { seq: 2, rounds: [round(a.session, now + 2 * day)] });
    expect(ahead).toMatchObject({ t: 'refused', seq: 2, Error: expect.stringMatching(/more than a day ahead/) });
    const old = await answer(a.c, { seq: 3, rounds: [round(a.session, Date.UTC(1999, 11, 31))] });
    expect(old).toMatchObject({ t: 'refused', seq: 3, Error: expect.stringMatching(/before 2000-01-01/) });
    // A route change dated out of range is not stored either, and does not end the link.
    a.c.send({ t: 'route', traceId: a.session, change: { time: 8.64e15, ttl: 1, previous: '10.0.0.1', current: '10.0.0.2' } });
    expect(await samples(a.session)).toBe(0);

    expect(await answer(a.c, { seq: 4, rounds: [round(a.session, now - 4000)] })).toEqual({ t: 'ack', seq: 4 });
    expect(await samples(a.session)).toBe(1);
    a.c.ws.close();
    await a.c.closed;
    const again = await link(hw, a.id, a.credential);
    expect(await answer(again, { seq: 5, rounds: [round(a.session, now - 3000)] })).toEqual({ t: 'ack', seq: 5 });
    expect(await samples(a.session)).toBe(2);
    again.ws.close();
  });
});
