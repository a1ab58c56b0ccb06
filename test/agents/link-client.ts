// A hand-driven agent link connection (not the agent program), for the suites that send the
// server what a real agent would not: forged session ids, other agents' request numbers,
// malformed, repeated or out-of-range batches. Speaks agent/protocol.ts over a plain WebSocket.
import { expect } from 'vitest';
import WebSocket from 'ws';
import type { Appliance } from '../support/appliance.js';
import { parseSetupLink } from '../../agent/setup-link.js';
import { createAgentWithLink } from './support.js';

export async function enrol(hw: Appliance, id: number, key: string): Promise<Response> {
  return fetch(`${hw.url}/api/agent/enrol`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ AgentId: id, Key: key }) });
}

/** Creates an agent (as the signed-in user of `cookie`, in that user's account) and enrols it; answers its id and credential. */
export async function enrolled(hw: Appliance, cookie: string, name: string): Promise<{ id: number; credential: string }> {
  const { agent, link } = await createAgentWithLink(hw.url, cookie, name);
  const r = await enrol(hw, agent.ID, parseSetupLink(link.SetupLink).key);
  expect(r.status).toBe(200);
  return { id: agent.ID, credential: ((await r.json()) as { Credential: string }).Credential };
}

export interface LinkClient {
  ws: WebSocket;
  messages: { t: string; [k: string]: unknown }[];
  closed: Promise<{ code: number; reason: string }>;
  /** The next message of this type, or of any of these types (taken from those received, or waited for). */
  next(t: string | string[]): Promise<{ t: string; [k: string]: unknown }>;
  send(m: unknown): void;
}

/** Connects as the agent, and says hello (waiting for the assignment) unless `hello` is false. */
export async function link(hw: Appliance, id: number, credential: string, hello = true): Promise<LinkClient> {
  const ws = new WebSocket(`${hw.url.replace('http', 'ws')}/agentLink`, { headers: { authorization: `Bearer ${id}.${credential}` } });
  const messages: LinkClient['messages'] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (d) => {
    messages.push(JSON.parse(d.toString()));
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<{ code: number; reason: string }>((ok) => ws.on('close', (code, reason) => ok({ code, reason: reason.toString() })));
  await new Promise<void>((ok, fail) => {
    ws.once('open', () => ok());
    ws.once('unexpected-response', (_q, res) => fail(new Error(`upgrade refused ${res.statusCode}`)));
    ws.once('error', fail);
  });
  const c: LinkClient = {
    ws,
    messages,
    closed,
    send: (m) => ws.send(typeof m === 'string' ? m : JSON.stringify(m)),
    next: async (t) => {
      for (;;) {
        const i = messages.findIndex((m) => [t].flat().includes(m.t));
        if (i >= 0) return messages.splice(i, 1)[0];
        await new Promise<void>((ok) => waiters.push(ok));
      }
    },
  };
  if (hello) {
    c.send({ t: 'hello', protocol: 1, machineId: 'm-1', machineName: 'branch-1', platform: 3, version: '0.1.0.0', mode: 2 });
    await c.next('assign');
  }
  return c;
}

/** A round of one hop as an agent sends it. */
export const round = (traceId: number, time: number) => ({ traceId, time, hops: [{ ttl: 1, address: '127.0.0.1', name: null, rtt: 0.5 }] });
