// Alerts end to end on a real lossy path (issue 22, Tests): a trace through network
// namespaces (topology id 100) with 50% loss at router 2; a loss alert on the target mails a
// real SMTP server on loopback, calls a real HTTP receiver with the substituted variables
// and comments the graph. Removing the loss ends it: start and end each arrive exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { asRoot } from '../netns/rounds.js';
import { buildTopology, type Topology } from '../netns/topology.js';
import { dataDirWithEngineSettings } from '../support/engine-settings.js';
import { LoopbackWebhooks, startHttpSink, startMailSink, sleep, waitFor, type HttpSink, type MailSink } from './support.js';

const TopologyId = 100;

describe.skipIf(!asRoot)('a loss alert on a netns lossy path (needs root for network namespaces)', () => {
  let topo: Topology;
  let hw: Appliance;
  let mail: MailSink;
  let hook: HttpSink;
  let cookie: string;
  let id: number;
  let alertId: number;
  const send = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${hw.url}${path}`, { method, headers: { cookie, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : null };
  };

  beforeAll(async () => {
    topo = buildTopology({ id: TopologyId, routers: 2, loss: [{ router: 2, percent: 50 }] });
    mail = await startMailSink();
    hook = await startHttpSink();
    const dataDir = await dataDirWithEngineSettings({ timeoutMs: 300 });
    hw = await startAppliance({
      dataDir,
      env: {
        ...LoopbackWebhooks,
        HOPWATCH_ROOT_PASSWORD: 'alerts-root-pw',
        HOPWATCH_SMTP_HOST: '127.0.0.1',
        HOPWATCH_SMTP_PORT: String(mail.port),
        HOPWATCH_SMTP_SECURITY: 'none',
        HOPWATCH_SMTP_FROM: 'hopwatch@example.org',
        HOPWATCH_PUBLIC_URL: 'http://hopwatch.example.org',
      },
    });
    cookie = await signIn(hw.url, 'admin', 'alerts-root-pw');
    const started = await send('GET', `/cmd/newtarget?target=${topo.target.v4}&traceInterval=0.1`);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    id = started.body.ID;
  });
  afterAll(async () => {
    await hw?.dispose();
    await mail?.close();
    await hook?.close();
    topo?.destroy();
  });

  it('mails, calls the webhook and comments once when the loss starts, and once when it ends', async () => {
    const created = await send('POST', '/api/alerts', {
      Name: 'Loss to <b>branch</b>',
      Condition: { Kind: 'loss', Hop: 0, Samples: 20, Lost: 4 },
      Events: ['start', 'end'],
      MinRepeatSeconds: 0,
      // The end as soon as the loss is gone (delivery is tested here; Recover in test/alerts/hysteresis-sim.test.ts).
      RecoverSeconds: 0,
      Targets: [id],
      Actions: [
        { Kind: 'email', Config: { To: 'ops@example.org' } },
        {
          Kind: 'webhook',
          Config: {
            Method: 'POST',
            Url: `${hook.url}/hook?token=secret`,
            Headers: { 'X-Team': 'netops' },
            Format: 'custom',
            Template: JSON.stringify({ event: '$event', host: '$host', hop: '$hop', loss: '$loss', latency: '$latency', time: '$time', agent: '$agent', link: '$link', alert: '$alert' }),
          },
        },
        { Kind: 'comment', Config: {} },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    alertId = created.body.AlertID;
    expect(created.body).toMatchObject({ Name: 'Loss to <b>branch</b>', Targets: [id], Events: ['start', 'end'] });

    // HasAlert on the target's rows.
    const rows = await send('GET', `/api/data/TraceGraphRows?listType=Target&uniqueID=${id}&requests[0].ID=${id}&requests[0].Start=0`);
    expect(rows.status).toBe(200);
    expect(rows.body.Rows.length).toBeGreaterThan(0);
    expect(rows.body.Rows.every((r: { HasAlert: boolean }) => r.HasAlert)).toBe(true);

    const start = await waitFor('the start webhook', () => hook.requests.find((r) => JSON.parse(r.body).event === 'start'));
    expect(start.method).toBe('POST');
    expect(start.url).toBe('/hook?token=secret');
    expect(start.headers['x-team']).toBe('netops');
    const v = JSON.parse(start.body);
    expect(v.host).toContain(topo.target.v4);
    expect(v.hop).toMatch(/^target \(hop 3\)$/);
    expect(Number(v.loss)).toBeGreaterThanOrEqual(20);
    // The window's average latency of its answered samples: 'n/a' when none answered (the loss
    // starts with the first samples after the alert is made, 1 time in 16 at 50% loss).
    if (Number(v.loss) === 100) expect(v.latency).toBe('n/a');
    else expect(Number(v.latency)).toBeGreaterThan(0);
    expect(Date.parse(v.time)).toBeGreaterThan(Date.now() - 120_000);
    expect(v.agent).toBe('Local Machine');
    expect(v.link).toBe(`http://hopwatch.example.org/targets/${id}`);
    expect(v.alert).toBe('Loss to <b>branch</b>');

    const startMail = await waitFor('the start mail', () => mail.mails.find((m) => /started/.test(m.raw)));
    expect(startMail.to).toEqual(['ops@example.org']);
    expect(startMail.from).toBe('hopwatch@example.org');
    // The alert name is escaped in the HTML part, never markup.
    expect(startMail.raw).toContain('&lt;b&gt;branch&lt;/b&gt;');
    expect(startMail.raw).not.toMatch(/<td>Loss to <b>/);

    // The loss stops: the condition ends after 20 clean samples.
    topo.exec(2, ['nft', 'delete', 'table', 'inet', 'hwloss']);
    await waitFor('the end webhook', () => hook.requests.find((r) => JSON.parse(r.body).event === 'end'), 90_000);
    await waitFor('the end mail', () => mail.mails.find((m) => /ended/.test(m.raw)));
    // Several more seconds of clean samples: nothing more arrives.
    await sleep(4000);
    const events = hook.requests.map((r) => JSON.parse(r.body).event);
    expect(events.filter((e) => e === 'start')).toHaveLength(1);
    expect(events.filter((e) => e === 'end')).toHaveLength(1);
    expect(mail.mails.filter((m) => /started/.test(m.raw))).toHaveLength(1);
    expect(mail.mails.filter((m) => /ended/.test(m.raw))).toHaveLength(1);

    // The comment on the graph, one per event.
    const comments = await send('GET', `/cmd/getcomments?sessionWebId=${id}&startDate=0&endDate=${Date.now()}`);
    expect(comments.status).toBe(200);
    const texts = comments.body.map((c: { Text: string }) => c.Text);
    expect(texts.filter((t: string) => /started/.test(t))).toHaveLength(1);
    expect(texts.filter((t: string) => /ended/.test(t))).toHaveLength(1);

    const alert = await send('GET', `/api/alerts/${alertId}`);
    expect(alert.body).toMatchObject({ Firing: [], Pending: 0, LastError: '' });
    const log = await send('GET', `/api/alerts/${alertId}/notifications`);
    expect(log.body.filter((n: { status: string }) => n.status === 'sent')).toHaveLength(6);
  });

  it('deleting the alert clears HasAlert', async () => {
    expect((await send('DELETE', `/api/alerts/${alertId}`)).status).toBe(204);
    const rows = await send('GET', `/api/data/TraceGraphRows?listType=Target&uniqueID=${id}&requests[0].ID=${id}&requests[0].Start=0`);
    expect(rows.body.Rows.some((r: { HasAlert: boolean }) => r.HasAlert)).toBe(false);
    expect((await send('GET', `/api/alerts/${alertId}`)).status).toBe(404);
  });
});
