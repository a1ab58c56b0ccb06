// Issue 39 item 4: on a hosted appliance (HOPWATCH_DEPLOYMENT=1) an agent of account B may not
// answer, or write under, anything of account A through the agent link. Every message naming a
// session or a request is checked against the sending agent first, and request numbers belong
// to one link: B's agent answering A's ReresolveHost with A's request number (naming A's
// session, or one of its own) changes nothing of A's, and its trace errors and rounds naming
// A's session are not recorded. Both agents are hand-driven link connections (link-client.ts).
import { HttpTransportType, type HubConnection } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedAccount } from '../../server/contract/accounts.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { connectHub } from '../security/support.js';
import { cmd, waitFor } from './support.js';
import { enrolled, link, round, type LinkClient } from './link-client.js';

const staff = { user: 'ops@provider.example', password: 'Staff-pw-links-1' };
let hw: Appliance;
const a = { cookie: '', agent: 0, credential: '', session: 0 };
const b = { cookie: '', agent: 0, credential: '', session: 0 };

async function post<T>(path: string, cookie: string, method: string, body?: unknown): Promise<T> {
  const r = await fetch(hw.url + path, { method, headers: { cookie, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await r.text();
  expect(r.status, text).toBe(200);
  return JSON.parse(text) as T;
}

/** A customer account made by the provider's staff, and its first user signed in with a password of its own. */
async function account(name: string, email: string): Promise<string> {
  const made = await post<CreatedAccount>('/api/staff/accounts', await signIn(hw.url, staff.user, staff.password), 'POST', { Name: name, UserEmail: email });
  const temp = await signIn(hw.url, email, made.TemporaryPassword);
  const password = `Own-pw-${made.Account.Id}-links`;
  await post(`/api/Account?newPassword=${encodeURIComponent(password)}`, temp, 'PATCH');
  return signIn(hw.url, email, password);
}

/** A hub connection of a console user (WebSockets). */
const hub = async (cookie: string): Promise<HubConnection> => (await connectHub(hw, cookie, HttpTransportType.WebSockets)).connection;

/** B's batches' sequence numbers, one after another across its connections. */
let seqB = 0;

/** Waits until the server has handled every frame sent before (frames are handled in order): a batch's answer comes after them. */
async function handled(c: LinkClient): Promise<void> {
  const seq = ++seqB;
  c.send({ t: 'batch', seq, rounds: [] });
  for (;;) {
    const m = await c.next(['ack', 'refused']);
    if (m.seq === seq) return;
  }
}

beforeAll(async () => {
  hw = await startAppliance({
    env: { HOPWATCH_DEPLOYMENT: '1', HOPWATCH_ENGINE: 'simulated', HOPWATCH_ROOT_PASSWORD: 'root-pw-links', HOPWATCH_STAFF_USER: staff.user, HOPWATCH_STAFF_PASSWORD: staff.password },
  });
  a.cookie = await account('Account A', 'amy@a.example');
  b.cookie = await account('Account B', 'bea@b.example');
  for (const [who, name] of [[a, 'A-branch'], [b, 'B-branch']] as const) {
    Object.assign(who, await enrolled(hw, who.cookie, name).then(({ id, credential }) => ({ agent: id, credential })));
    // A DNS-name target (ReresolveHost resolves only those), run by the account's own agent.
    who.session = (await cmd<{ ID: number }>(hw.url, who.cookie, `/cmd/newtarget?target=localhost&traceInterval=1&agentID=${who.agent}`)).ID;
  }
}, 120_000);

afterAll(async () => {
  await hw?.dispose();
});

describe("an agent of another account (hosted)", () => {
  it("cannot answer A's ReresolveHost: a request number is looked up on the link it was sent on", async () => {
    const agentA = await link(hw, a.agent, a.credential);
    const agentB = await link(hw, b.agent, b.credential);
    const h = await hub(a.cookie);
    try {
      // B's agent answers A's request number first: naming one of its own sessions, then A's.
      for (const [named, forged, real] of [
        [b.session, '198.51.100.66', '192.0.2.10'],
        [a.session, '198.51.100.67', '192.0.2.11'],
      ] as const) {
        const answer = h.invoke<string>('ReresolveHost', String(a.session));
        const asked = (await agentA.next('reresolve')) as unknown as { traceId: number; req: number };
        expect(asked.traceId).toBe(a.session);
        agentB.send({ t: 'resolved', traceId: named, address: forged, req: asked.req });
        await handled(agentB);
        // Then A's own agent answers.
        agentA.send({ t: 'resolved', traceId: a.session, address: real, req: asked.req });
        expect(await answer).toBe(real);
        const targets = await cmd<{ ID: number; IPAddress: string }[]>(hw.url, a.cookie, `/cmd/agentTargets?agentId=${a.agent}`);
        expect(targets.find((t) => t.ID === a.session)?.IPAddress).toBe(real);
      }
    } finally {
      await h.stop();
      agentA.ws.close();
      agentB.ws.close();
    }
  });

  it("cannot write trace errors or rounds under A's session", async () => {
    const agentB = await link(hw, b.agent, b.credential);
    try {
      agentB.send({ t: 'traceError', traceId: a.session, message: 'B-wrote-this-error' });
      const forged = ++seqB;
      agentB.send({ t: 'batch', seq: forged, rounds: [round(a.session, Date.now() - 1000)] });
      expect(await agentB.next('refused')).toMatchObject({ seq: forged });
      // An error of its own session is logged; the log is one stream in order, so once that
      // line is there, a line of the error naming A's session would be there too.
      agentB.send({ t: 'traceError', traceId: b.session, message: 'B-own-error' });
      const errorLines = (marker: string) => hw.output().split('\n').filter((l) => l.includes(marker));
      await waitFor('the error line of its own session', async () => errorLines('B-own-error').length > 0);
      expect(errorLines('B-own-error')).toEqual([expect.stringContaining(`"sessionId":${b.session},`)]);
      expect(errorLines('B-wrote-this-error')).toEqual([]);
      const h = await hub(a.cookie);
      try {
        expect(await h.invoke('GetSampleCountForSession', a.session)).toBe(0);
      } finally {
        await h.stop();
      }
    } finally {
      agentB.ws.close();
    }
  });
});
