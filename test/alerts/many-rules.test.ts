// 10,000 alert rules (issue 22, bad input): an account at the limit, all of them watching one
// running target (evaluated at each of its commits), refuses the next with a clear 409; the
// server starts with them, lists them, keeps ingesting and answering, loses none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { Store } from '../support/built.js';
import { engineEnv } from '../support/trace-network.js';
import { waitFor } from './support.js';
import { openTestStore } from '../../server/store/testing/test-store.js';

let hw: Appliance;
let cookie: string;
let target: number;
const send = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(`${hw.url}${path}`, { method, headers: { cookie, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
};
/** Never holds on loopback: every rule is evaluated, none notifies. */
const never = { Kind: 'latency', Hop: 0, Samples: 5, ThresholdMs: 600000 };

beforeAll(async () => {
  const first = await startAppliance({ env: { ...engineEnv(), HOPWATCH_ROOT_PASSWORD: 'many-root-pw' } });
  cookie = await signIn(first.url, 'admin', 'many-root-pw');
  hw = first;
  const started = await send('GET', '/cmd/newtarget?target=127.0.0.1&traceInterval=0.5');
  expect(started.status).toBe(200);
  target = started.body.ID;
  await first.stop();
  // 9,999 rules written straight into the stopped appliance's database.
  const store = await openTestStore(first.dataDir);
  try {
    const account = (await store.one<{ id: number; user: number }>('SELECT u.account_id AS id, u.id AS user FROM users u ORDER BY u.id LIMIT 1'))!;
    await store.run(
      `INSERT INTO alerts (account_id, created_by, name, condition_json, events_json, min_repeat_seconds, enabled, created_at)
       SELECT $1, $2, 'rule ' || i, $3, '["start","end"]', 300, true, 0 FROM range(9999) t(i)`,
      [account.id, account.user, JSON.stringify(never)],
    );
    await store.run('INSERT INTO alert_targets SELECT id, $1 FROM alerts', [target]);
    await store.run(`INSERT INTO alert_actions (alert_id, kind, config_json) SELECT id, 'log', '{}' FROM alerts`);
  } finally {
    await store.close();
  }
  hw = await first.restart();
  cookie = await signIn(hw.url, 'admin', 'many-root-pw');
}, 240_000);
afterAll(async () => {
  await hw?.dispose();
});

describe('10,000 alert rules', () => {
  it('the 10,000th is accepted, the next refused with a clear error; nothing is lost', async () => {
    const ok = await send('POST', '/api/alerts', { Name: 'rule 10000', Condition: never, Events: ['start'], Targets: [target], Actions: [{ Kind: 'log', Config: {} }] });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const refused = await send('POST', '/api/alerts', { Name: 'one too many', Condition: never, Events: ['start'], Targets: [target] });
    expect(refused.status).toBe(409);
    expect(refused.body.Error).toBe('An account has at most 10000 alerts: delete some first.');
    const all = await send('GET', '/api/alerts');
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(10_000);
    expect(new Set(all.body.map((a: { Name: string }) => a.Name)).size).toBe(10_000);
  });

  it('keeps tracing and answering while all of them evaluate each commit', async () => {
    const rows = () => send('GET', `/api/data/TraceGraphRows?listType=Target&uniqueID=${target}&requests[0].ID=${target}&requests[0].Start=0`);
    const before = (await rows()).body.Rows[0].TotalCount as number;
    await waitFor('more samples', async () => ((await rows()).body.Rows[0].TotalCount > before + 10 ? true : undefined), 60_000);
    const r = await rows();
    expect(r.body.Rows.every((x: { HasAlert: boolean }) => x.HasAlert)).toBe(true);
    expect((await fetch(`${hw.url}/readyz`)).status).toBe(200);
    // The sidebar page of 10,000 alerts renders.
    const page = await send('GET', `/cmd/getpage?page=Alerts%2FManagement.html&parameters=%7B%7D&selectedTargets=%5B%22${target}%22%5D`);
    expect(page.status).toBe(200);
    expect(page.body.HTML).toContain('rule 10000');
  });
});
