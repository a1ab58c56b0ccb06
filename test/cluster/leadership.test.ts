// Issue 43 item 2: work that must run once runs once. Two appliance replicas (dist/server/main.js,
// the simulated engine) on one throwaway PostgreSQL: exactly one of them (the leader) runs
// retention, traces the Local Machine and delivers the alert's webhook to a real receiver on
// loopback once; SIGKILL the leader and the other takes over within 15 s, carries the firing
// alert on without sending it again, runs retention, and delivers the next event exactly once.
// PostgreSQL phase only (HOPWATCH_TEST_STORE=postgres, test/run-all.mjs).
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { postgresInstalled, startPostgres, type ThrowawayPostgres } from '../support/postgres.js';
import { testStore } from '../../server/store/testing/test-store.js';
import { LoopbackWebhooks, sleep, startHttpSink, waitFor, type HttpSink } from '../alerts/support.js';

const run = testStore() === 'postgres' && postgresInstalled();
const Password = 'leadership-root-pw-1';
/** Latency above 0 ms at the target: holds from the first samples of any trace. */
const always = { Kind: 'latency', Hop: 0, Samples: 2, ThresholdMs: 0 };

let pg: ThrowawayPostgres;
let hook: HttpSink;
const replicas: Appliance[] = [];

async function replica(): Promise<Appliance> {
  const hw = await startAppliance({
    env: { ...LoopbackWebhooks, HOPWATCH_DATABASE_URL: pg.url, HOPWATCH_ENGINE: 'simulated', HOPWATCH_ROOT_PASSWORD: Password, HOPWATCH_LOG_LEVEL: 'info' },
  });
  replicas.push(hw);
  return hw;
}

interface Readiness {
  Status: string;
  Detail: { Database: string; Leadership: { Leader: boolean; Kind: string; Reason?: string } };
}
const readiness = async (hw: Appliance): Promise<Readiness> => (await fetch(`${hw.url}/readyz`)).json() as Promise<Readiness>;

/** The JSON log lines of a replica with this message. */
const lines = (hw: Appliance, msg: string, from = 0) =>
  hw
    .output()
    .slice(from)
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg: string; sessionId?: number })
    .filter((l) => l.msg.startsWith(msg));

async function call(hw: Appliance, cookie: string, method: string, path: string, body?: unknown) {
  const r = await fetch(`${hw.url}${path}`, { method, headers: { cookie, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
}

const webhooksOf = (alert: string) => hook.requests.filter((r) => r.url === `/${alert}`);

beforeAll(async () => {
  if (!run) return;
  pg = await startPostgres();
  hook = await startHttpSink();
}, 30_000);
afterAll(async () => {
  mkdirSync('test-results', { recursive: true });
  replicas.forEach((hw, i) => writeFileSync(`test-results/cluster-leadership-${i}.log`, hw.output()));
  for (const hw of replicas) await hw.dispose();
  await hook?.close();
  pg?.stop();
});

describe.skipIf(!run)('once-only work on two replicas of one PostgreSQL', () => {
  it('runs on the leader only, and hands over within 15 s when the leader is killed', async () => {
    const a = await replica();
    const b = await replica();
    // The first replica took the lease; the second serves too (ready) but does not lead.
    expect((await readiness(a)).Detail.Leadership).toMatchObject({ Leader: true, Kind: 'postgres' });
    const bReady = await readiness(b);
    expect(bReady.Status).toBe('ready');
    expect(bReady.Detail).toMatchObject({ Database: 'ok', Leadership: { Leader: false, Kind: 'postgres', Reason: 'another replica holds the lease' } });
    // Retention ran at the leader's start, not at the follower's.
    expect(lines(a, 'retention: expired')).toHaveLength(1);
    expect(lines(b, 'retention: expired')).toHaveLength(0);

    // A Local Machine target and an alert on it, both made through the follower: the leader
    // traces it (the follower does not), and the webhook of its start arrives once.
    const cookieB = await signIn(b.url, 'admin', Password);
    const started = await call(b, cookieB, 'GET', '/cmd/newtarget?target=127.0.0.1&traceInterval=0.5');
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const first: number = started.body.ID;
    await waitFor('the leader tracing the Local Machine target', () => lines(a, 'trace started').some((l) => l.sessionId === first), 20_000);
    const alert = await call(b, cookieB, 'POST', '/api/alerts', { Name: 'Once', Condition: always, Events: ['start'], Targets: [first], Actions: [{ Kind: 'webhook', Config: { Method: 'POST', Url: `${hook.url}/first`, Format: 'custom', Template: '{"text": "$alert $event on $host"}' } }] });
    expect(alert.status, JSON.stringify(alert.body)).toBe(200);
    await waitFor('the first webhook', () => webhooksOf('first').length > 0, 30_000);
    // A second copy would come from another replica's evaluation or delivery: give it time to.
    await sleep(3000);
    expect(webhooksOf('first')).toHaveLength(1);
    expect(lines(b, 'trace started').filter((l) => l.sessionId === first)).toHaveLength(0);

    // The leader dies without a word: the follower leads within 15 s.
    const bBefore = b.output().length;
    await a.kill();
    const killedAt = Date.now();
    await waitFor('the follower to lead', async () => (await readiness(b)).Detail.Leadership.Leader, 15_000);
    const handoverMs = Date.now() - killedAt;
    console.log(`leadership handover after SIGKILL: ${handoverMs} ms`);
    // It runs retention, and traces the Local Machine target from where the store has it.
    await waitFor('retention on the new leader', () => lines(b, 'retention: expired', bBefore).length === 1, 15_000);
    await waitFor('the new leader tracing the Local Machine target', () => lines(b, 'trace started', bBefore).some((l) => l.sessionId === first), 15_000);

    // The next event is delivered exactly once; the alert that fired before is not sent again.
    const next = await call(b, cookieB, 'GET', '/cmd/newtarget?target=127.0.0.1&traceInterval=0.5');
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    const second = await call(b, cookieB, 'POST', '/api/alerts', { Name: 'Next', Condition: always, Events: ['start'], Targets: [next.body.ID], Actions: [{ Kind: 'webhook', Config: { Method: 'POST', Url: `${hook.url}/second`, Format: 'custom', Template: '{"text": "$alert $event on $host"}' } }] });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    await waitFor('the next event webhook', () => webhooksOf('second').length > 0, 30_000);
    await sleep(3000);
    expect(webhooksOf('second')).toHaveLength(1);
    expect(webhooksOf('first')).toHaveLength(1);
    const firstAlert = await call(b, cookieB, 'GET', `/api/alerts/${alert.body.AlertID}`);
    expect(firstAlert.body.Firing).toEqual([first]);

    // The database goes away: /readyz answers 503 and says so, and the replica stops leading.
    pg.stop();
    const down = await waitFor('the replica not ready and no longer leading', async () => {
      const r = await fetch(`${b.url}/readyz`);
      const body = (await r.json()) as { Detail: Readiness['Detail'] };
      return r.status === 503 && !body.Detail.Leadership.Leader ? body : undefined;
    }, 15_000);
    expect(down).toMatchObject({ Error: 'The database does not answer.', Detail: { Database: 'unreachable', Leadership: { Leader: false, Kind: 'postgres' } } });
  }, 120_000);
});
