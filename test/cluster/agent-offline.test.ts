// Issue 43 item 2: the agent-offline timers run once, on the leader, and know the agents linked
// to any replica. Two replicas on one throwaway PostgreSQL; an agent (a hand-driven link) linked
// to the follower: its "offline for more than 3 s" alert does not fire while it stays linked
// there, and fires exactly once (one webhook to a real receiver) after its link closes.
// PostgreSQL phase only (HOPWATCH_TEST_STORE=postgres, test/run-all.mjs).
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { postgresInstalled, startPostgres, type ThrowawayPostgres } from '../support/postgres.js';
import { testStore } from '../../server/store/testing/test-store.js';
import { LoopbackWebhooks, sleep, startHttpSink, waitFor, type HttpSink } from '../alerts/support.js';
import { enrolled, link } from '../agents/link-client.js';

const run = testStore() === 'postgres' && postgresInstalled();
const Password = 'agent-offline-root-pw-1';

let pg: ThrowawayPostgres;
let hook: HttpSink;
const replicas: Appliance[] = [];

beforeAll(async () => {
  if (!run) return;
  pg = await startPostgres();
  hook = await startHttpSink();
}, 30_000);
afterAll(async () => {
  mkdirSync('test-results', { recursive: true });
  replicas.forEach((hw, i) => writeFileSync(`test-results/cluster-agent-offline-${i}.log`, hw.output()));
  for (const hw of replicas) await hw.dispose();
  await hook?.close();
  pg?.stop();
});

describe.skipIf(!run)('agent-offline alerts on two replicas', () => {
  it('do not fire for an agent linked to the follower, and fire once when it goes away', async () => {
    const env = { ...LoopbackWebhooks, HOPWATCH_DATABASE_URL: pg.url, HOPWATCH_ENGINE: 'simulated', HOPWATCH_ROOT_PASSWORD: Password, HOPWATCH_LOG_LEVEL: 'info' };
    const a = await startAppliance({ env });
    replicas.push(a);
    const b = await startAppliance({ env });
    replicas.push(b);
    expect(((await (await fetch(`${a.url}/readyz`)).json()) as { Detail: { Leadership: { Leader: boolean } } }).Detail.Leadership.Leader).toBe(true);

    const cookie = await signIn(b.url, 'admin', Password);
    const send = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(`${b.url}${path}`, { method, headers: { cookie, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await r.text();
      return { status: r.status, body: text ? JSON.parse(text) : null };
    };
    const agent = await enrolled(b, cookie, 'Branch');
    const linked = await link(b, agent.id, agent.credential);
    const target = await send('GET', `/cmd/newtarget?target=127.0.0.1&agentID=${agent.id}`);
    expect(target.status, JSON.stringify(target.body)).toBe(200);
    const alert = await send('POST', '/api/alerts', {
      Name: 'Branch away',
      Condition: { Kind: 'agentOffline', OfflineSeconds: 3 },
      Events: ['start'],
      Targets: [target.body.ID],
      Actions: [{ Kind: 'webhook', Config: { Method: 'POST', Url: `${hook.url}/offline`, Format: 'custom', Template: '{"text": "$alert $event"}' } }],
    });
    expect(alert.status, JSON.stringify(alert.body)).toBe(200);

    // Linked to B for well past the 3 s: the leader (A) knows it is online.
    await sleep(8000);
    expect(hook.requests).toHaveLength(0);

    // Gone: after 3 s (and the leader's next look) one notification, and only one.
    linked.ws.close();
    await linked.closed;
    await waitFor('the agent-offline webhook', () => hook.requests.length > 0, 20_000);
    await sleep(4000);
    expect(hook.requests.map((r) => r.url)).toEqual(['/offline']);
  }, 90_000);
});
