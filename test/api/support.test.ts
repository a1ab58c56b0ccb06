// POST /cmd/sendsupportticket keeps the ticket and the console's error log in the appliance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';

let hw: Appliance;
let cookie: string;
beforeAll(async () => {
  hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'pw' } });
  cookie = await signIn(hw.url, 'admin', 'pw');
});
afterAll(async () => {
  await hw?.dispose();
});

const send = (query: string, body: string, c = cookie) =>
  fetch(`${hw.url}/cmd/sendsupportticket?${query}`, { method: 'POST', headers: { cookie: c, 'content-type': 'application/json' }, body });

describe('support tickets', () => {
  it('stores a ticket with a large error log', async () => {
    const log = JSON.stringify([{ Time: '2026-11-22T00:00:00Z', Message: 'x'.repeat(1_000_000) }]);
    const r = await send('name=Ann&email=ann%40example.org&problemStatement=Graphs%20are%20empty', log);
    expect(r.status).toBe(200);
    expect((await r.json()).Id).toBeGreaterThan(0);
  });

  it('refuses a bad e-mail in self-hosted mode, a blank problem, and guests', async () => {
    const bad = await send('name=Ann&email=nope&problemStatement=x', '[]');
    expect(bad.status).toBe(400);
    expect((await bad.json()).Error).toBe('Enter a valid e-mail address.');
    expect((await send('email=ann%40example.org&problemStatement=%20', '[]')).status).toBe(400);
    expect((await send('email=ann%40example.org&problemStatement=x', '[]', '')).status).toBe(401);
  });
});
