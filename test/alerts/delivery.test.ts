// Delivery when things go wrong (issue 22, Tests): the mail server down for 60 s delays the
// mail and does not lose it; an unreachable webhook and an SMTP server answering garbage
// give clear answers on the alert and in "Send test"; templates with script are refused or
// escaped; the server stays healthy throughout. Traces loopback (raw sockets as root, the
// simulated engine otherwise).
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { engineEnv } from '../support/trace-network.js';
import { LoopbackWebhooks, startGarbageServer, startHttpSink, startMailSink, sleep, waitFor, type HttpSink, type MailSink, type ReceivedMail } from './support.js';

let hw: Appliance;
let cookie: string;
let mail: MailSink;
let hook: HttpSink;
let mailPort: number;
let target: number;
const mails: ReceivedMail[] = [];

const send = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(`${hw.url}${path}`, { method, headers: { cookie, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
};
/** Latency above 0 ms at the target: holds on the first samples of any trace. */
const always = { Kind: 'latency', Hop: 0, Samples: 2, ThresholdMs: 0 };

beforeAll(async () => {
  // A port that nothing listens on yet: the mail server is "down" until the test starts it.
  const probe = await startMailSink();
  mailPort = probe.port;
  await probe.close();
  hook = await startHttpSink();
  hw = await startAppliance({
    env: {
      ...engineEnv(),
      ...LoopbackWebhooks,
      HOPWATCH_ROOT_PASSWORD: 'delivery-root-pw',
      HOPWATCH_SMTP_HOST: '127.0.0.1',
      HOPWATCH_SMTP_PORT: String(mailPort),
      HOPWATCH_SMTP_SECURITY: 'none',
    },
  });
  cookie = await signIn(hw.url, 'admin', 'delivery-root-pw');
  const started = await send('GET', '/cmd/newtarget?target=127.0.0.1&traceInterval=0.5');
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  target = started.body.ID;
});
afterAll(async () => {
  if (hw) {
    mkdirSync('test-results', { recursive: true });
    writeFileSync('test-results/alerts-delivery-server.log', hw.output());
  }
  await hw?.dispose();
  await mail?.close();
  await hook?.close();
});

describe('notification delivery', () => {
  it('a mail server down for 60 s delays the mail; it arrives once when the server is back', async () => {
    const created = await send('POST', '/api/alerts', { Name: 'Mail later', Condition: always, Events: ['start'], Targets: [target], Actions: [{ Kind: 'email', Config: { To: 'noc@example.org' } }] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.AlertID;
    const failing = await waitFor('the failure on the alert', async () => {
      const a = (await send('GET', `/api/alerts/${id}`)).body;
      return a.LastError ? a : undefined;
    });
    expect(failing.LastError).toMatch(/retrying.*ECONNREFUSED|ECONNREFUSED.*/i);
    expect(failing.Pending).toBe(1);
    await sleep(60_000);
    expect((await send('GET', `/api/alerts/${id}`)).body.Pending).toBe(1);
    mail = await startMailSink(mailPort, mails);
    const got = await waitFor('the delayed mail', () => mails.find((m) => m.to.includes('noc@example.org')), 40_000);
    expect(got.raw).toContain('Mail later');
    await sleep(2000);
    expect(mails.filter((m) => m.to.includes('noc@example.org'))).toHaveLength(1);
    const after = (await send('GET', `/api/alerts/${id}`)).body;
    expect(after).toMatchObject({ Pending: 0, LastError: '', Firing: [target] });
    const log = (await send('GET', `/api/alerts/${id}/notifications`)).body;
    expect(log).toHaveLength(1);
    expect(log[0].status).toBe('sent');
    expect(log[0].attempts).toBeGreaterThan(1);
  }, 150_000);

  it('an unreachable webhook shows on the alert; Send test answers what it got', async () => {
    const closed = await startHttpSink();
    await closed.close();
    const unreachable = { Method: 'POST', Url: `${closed.url}/hook`, Format: 'slack' };
    const created = await send('POST', '/api/alerts', { Name: 'Nowhere', Condition: always, Events: ['start'], Targets: [target], Actions: [{ Kind: 'webhook', Config: unreachable }] });
    const id = created.body.AlertID;
    const a = await waitFor('the webhook failure', async () => {
      const x = (await send('GET', `/api/alerts/${id}`)).body;
      return x.LastError ? x : undefined;
    });
    expect(a.LastError).toContain(`POST ${closed.url}/hook failed: connection refused`);
    const test = await send('POST', '/api/alerts/test-action', { Kind: 'webhook', Config: unreachable });
    // A class of failure, not the system's error text (issue 39 item 2).
    expect(test.body).toEqual({ Ok: false, Answer: `POST ${closed.url}/hook failed: connection refused` });
    // A receiver that answers 200: Send test shows its status, never the body.
    const ok = await send('POST', '/api/alerts/test-action', { Kind: 'webhook', Config: { Method: 'PUT', Url: `${hook.url}/x`, Format: 'discord' }, TargetID: target });
    expect(ok.body).toEqual({ Ok: true, Answer: '200 OK' });
    expect(JSON.parse(hook.requests.at(-1)!.body).content).toMatch(/Test alert started on 127\.0\.0\.1/);
    // A receiver that refuses (4xx) is not retried.
    hook.status = 404;
    const refused = await send('POST', '/api/alerts/test-action', { Kind: 'webhook', Config: { Method: 'POST', Url: `${hook.url}/gone`, Format: 'gotify' } });
    expect(refused.body).toEqual({ Ok: false, Answer: '404 Not Found' });
    hook.status = 200;
    expect((await send('DELETE', `/api/alerts/${id}`)).status).toBe(204);
    expect((await fetch(`${hw.url}/readyz`)).status).toBe(200);
  });

  it('an SMTP server that answers garbage gives a clear error, and the server stays up', async () => {
    const garbage = await startGarbageServer();
    try {
      const put = await send('PUT', '/api/mail/settings', { Host: '127.0.0.1', Port: garbage.port, Security: 'none', Password: 'smtp-secret' });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect(put.body).toMatchObject({ Host: '127.0.0.1', Port: garbage.port, HasPassword: true });
      expect(JSON.stringify(put.body)).not.toContain('smtp-secret');
      const test = await send('POST', '/api/mail/test', { To: 'noc@example.org' });
      expect(test.status).toBe(200);
      expect(test.body.Ok).toBe(false);
      expect(test.body.Answer).toMatch(/Mail to noc@example.org via 127\.0\.0\.1:\d+ failed/);
      const action = await send('POST', '/api/alerts/test-action', { Kind: 'email', Config: { To: 'noc@example.org' } });
      expect(action.body.Ok).toBe(false);
    } finally {
      await garbage.close();
      await send('PUT', '/api/mail/settings', { Port: mailPort });
    }
    expect((await fetch(`${hw.url}/readyz`)).status).toBe(200);
    expect(hw.output()).not.toContain('smtp-secret');
  });

  it('refuses bad input with clear errors', async () => {
    const base = { Name: 'x', Condition: always, Events: ['start'], Targets: [target] };
    const bad = async (body: unknown, status: number, error: RegExp) => {
      const r = await send('POST', '/api/alerts', body);
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      expect(r.body.Error).toMatch(error);
    };
    await bad({ ...base, Actions: [{ Kind: 'webhook', Config: { Method: 'POST', Url: 'http://x/', Format: 'custom', Template: '<script>alert(1)</script>' } }] }, 400, /template must be JSON/);
    await bad({ ...base, Actions: [{ Kind: 'webhook', Config: { Method: 'POST', Url: 'javascript:alert(1)', Format: 'custom' } }] }, 400, /http or https/);
    await bad({ ...base, Actions: [{ Kind: 'webhook', Config: { Method: 'POST', Url: 'http://x/', Format: 'custom', Headers: { 'X-A': 'a\r\nInjected: 1' } } }] }, 400, /not a valid header/);
    await bad({ ...base, Actions: [{ Kind: 'email', Config: { To: 'not an address' } }] }, 400, /e-mail addresses/);
    await bad({ ...base, Condition: { Kind: 'loss', Hop: 0, Samples: 5, Lost: 9 } }, 400, /Lost/);
    await bad({ ...base, Targets: [999999] }, 404, /Target 999999 not found/);
    await bad({ ...base, Name: '   ' }, 400, /needs a name/);
    await bad({ ...base, Condition: { Kind: 'nope', Hop: 0, Samples: 5 } }, 400, /.+/);
    // Script in a JSON template is just text in the JSON body the webhook gets.
    const ok = await send('POST', '/api/alerts/test-action', { Kind: 'webhook', Config: { Method: 'POST', Url: `${hook.url}/s`, Format: 'custom', Template: '{"text":"<script>alert(1)</script> $host"}' } });
    expect(ok.body.Ok).toBe(true);
    expect(JSON.parse(hook.requests.at(-1)!.body)).toEqual({ text: '<script>alert(1)</script> (no target)' });
  });

  it('without AlertsManagement the calls are refused', async () => {
    const created = await send('POST', '/api/user?password=reader-pw-9', { EmailAddress: 'plain@example.org', Roles: [] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const plain = await signIn(hw.url, 'plain@example.org', 'reader-pw-9');
    const r = await fetch(`${hw.url}/api/alerts`, { headers: { cookie: plain } });
    expect(r.status).toBe(403);
  });
});
