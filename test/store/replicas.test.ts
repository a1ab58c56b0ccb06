// Two appliances on one PostgreSQL (issue 42 item 1, docs/store.md "What lives where"): nothing
// a second replica needs stays in a local file or in one process's memory. Two processes of
// dist/server/main.js (simulated engine), each with a data directory of its own, started
// together on one empty database: the first start is made once (one account, one root user),
// a login session made on A works on B and its sign-out ends it there too, an agent's Auto
// Setup link shown on A is the one B shows and accepts (and B's credential links to A), a
// LiveShare link made on A shows the same password on B, notifications raised on both get
// distinct ids (each delivered and stored), and neither data directory holds a key file.
// Runs in the postgres phase (HOPWATCH_TEST_STORE=postgres) only: it is about PostgreSQL.
import { readdirSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentDownloadLink } from '../../server/contract/agents.js';
import { NotificationHeader } from '../../server/alerts/actions.js';
import { testDatabaseUrl, testStore } from '../../server/store/testing/test-store.js';
import { parseSetupLink } from '../../agent/setup-link.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { LoopbackWebhooks, startHttpSink, waitFor, type HttpSink } from '../alerts/support.js';
import { enrol, link } from '../agents/link-client.js';
import { cmd, createAgentWithLink } from '../agents/support.js';

const RootPassword = 'replicas-root-pw';

describe.runIf(testStore() === 'postgres')('two appliances on one PostgreSQL database', () => {
  let a: Appliance;
  let b: Appliance;
  let db: pg.Client;
  let hook: HttpSink;
  let cookieA: string;
  let cookieB: string;

  const call = (hw: Appliance, cookie: string, path: string, init: RequestInit = {}) =>
    fetch(`${hw.url}${path}`, { ...init, headers: { cookie, 'content-type': 'application/json', ...(init.headers ?? {}) } });
  const json = async <T>(hw: Appliance, cookie: string, path: string, init: RequestInit = {}): Promise<T> => {
    const r = await call(hw, cookie, path, init);
    const text = await r.text();
    expect(r.status, `${path}: ${text}`).toBe(200);
    return JSON.parse(text) as T;
  };

  beforeAll(async () => {
    hook = await startHttpSink();
    const url = await testDatabaseUrl(`replicas-${process.pid}-${Date.now()}`);
    const env = { HOPWATCH_DATABASE_URL: url, HOPWATCH_ENGINE: 'simulated', HOPWATCH_ROOT_PASSWORD: RootPassword, HOPWATCH_PUBLIC_URL: '', ...LoopbackWebhooks };
    // Together, as replicas of a Deployment start: the first start's work must happen once.
    [a, b] = await Promise.all([startAppliance({ env }), startAppliance({ env })]);
    db = new pg.Client(url);
    await db.connect();
    cookieA = await signIn(a.url, 'admin', RootPassword);
    cookieB = await signIn(b.url, 'admin', RootPassword);
  });
  afterAll(async () => {
    await db?.end();
    await Promise.all([a?.dispose(), b?.dispose()]);
    await hook?.close();
  });

  it('makes the first start once: one account, one root user', async () => {
    const { rows } = await db.query(`SELECT (SELECT count(*) FROM accounts)::INTEGER AS accounts, (SELECT count(*) FROM users WHERE is_root)::INTEGER AS roots`);
    expect(rows[0]).toEqual({ accounts: 1, roots: 1 });
  });

  it('keeps no key file in either data directory: the keys are in the database, one of each', async () => {
    // The Auto Setup link and LiveShare below make every key be used on both.
    for (const hw of [a, b]) expect(readdirSync(hw.dataDir).filter((f) => f.endsWith('.key')), hw.dataDir).toEqual([]);
    const { rows } = await db.query('SELECT name FROM server_keys ORDER BY name');
    expect(rows.map((r) => r.name)).toEqual(['agent-setup.key', 'liveshare.key', 'remote-server.key']);
  });

  it('accepts on B a login session made on A, and a sign-out on A ends it on B', async () => {
    const session = await signIn(a.url, 'admin', RootPassword);
    const me = await json<{ UserName?: string; Username?: string; IsUser: boolean }>(b, session, '/api/Account/GetCurrentUser');
    expect(me.IsUser).toBe(true);
    expect((await call(a, session, '/api/Account/Logout', { method: 'POST' })).status).toBe(204);
    expect((await call(b, session, '/api/Account/GetCurrentUser')).status).toBe(401);
  });

  it('shows on B the Auto Setup link made on A, accepts it there, and the credential links to A', async () => {
    const { agent, link: onA } = await createAgentWithLink(a.url, cookieA, 'Branch office');
    const onB = await cmd<AgentDownloadLink>(b.url, cookieB, `/cmd/download-link/${agent.ID}`);
    const key = parseSetupLink(onA.SetupLink).key;
    expect(parseSetupLink(onB.SetupLink).key).toBe(key);
    expect(onB.Replaced).toBe(false);
    // A again: B did not replace the key either.
    expect(parseSetupLink((await cmd<AgentDownloadLink>(a.url, cookieA, `/cmd/download-link/${agent.ID}`)).SetupLink).key).toBe(key);
    const enrolled = await enrol(b, agent.ID, key);
    expect(enrolled.status).toBe(200);
    const { Credential } = (await enrolled.json()) as { Credential: string };
    const onLinkA = await link(a, agent.ID, Credential);
    try {
      expect(onLinkA.ws.readyState).toBe(onLinkA.ws.OPEN);
    } finally {
      onLinkA.ws.close();
      await onLinkA.closed;
    }
  });

  it('shows on B the password of a LiveShare link made on A', async () => {
    const summary = await json<{ UniqueID: string }>(a, cookieA, `/cmd/createsummary?name=${encodeURIComponent('Shared')}`);
    const made = await json<{ ShareId: string; SecurePW: string; LiveShareURL: string }>(a, cookieA, '/api/liveshare', {
      method: 'POST',
      body: JSON.stringify({ SummaryID: `SUM-${summary.UniqueID.replace(/^SUM-/, '')}` }),
    });
    expect(made.SecurePW).not.toBe('');
    const onB = await json<{ SecurePW: string; LiveShareURL: string }>(b, cookieB, `/api/liveshare/${made.ShareId}`);
    expect(onB.SecurePW).toBe(made.SecurePW);
    expect(onB.LiveShareURL).toBe(`${b.url}/LiveShare/${made.ShareId}/${made.SecurePW}`);
  });

  it('gives notifications raised on A and on B distinct ids, each delivered once and stored', async () => {
    const always = { Kind: 'latency', Hop: 0, Samples: 2, ThresholdMs: 0 };
    for (const [hw, cookie, name] of [
      [a, cookieA, 'On A'],
      [b, cookieB, 'On B'],
    ] as const) {
      const target = await json<{ ID: number }>(hw, cookie, '/cmd/newtarget?target=127.0.0.1&traceInterval=0.5');
      const hookConfig = { Method: 'POST', Url: `${hook.url}/${name.replace(' ', '-')}`, Format: 'custom' };
      await json(hw, cookie, '/api/alerts', { method: 'POST', body: JSON.stringify({ Name: name, Condition: always, Events: ['start'], Targets: [target.ID], Actions: [{ Kind: 'webhook', Config: hookConfig }] }) });
      // One after the other: each replica's first notification, as the counter in memory would number it.
      await waitFor(`the webhook of ${name}`, async () => hook.requests.find((r) => r.url === `/${name.replace(' ', '-')}`));
    }
    const ids = hook.requests.map((r) => Number(r.headers[NotificationHeader]));
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    const { rows } = await db.query('SELECT id::INTEGER AS id FROM notifications ORDER BY id');
    expect(rows.map((r) => r.id)).toEqual([...ids].sort((x, y) => x - y));
  });
});
