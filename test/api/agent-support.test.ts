// POST /cmd/cloudconnect-agent-get-support (issue 23 part 4, spec 1 section 7): the onboarding
// window's Get Help for one agent is kept as a support ticket naming the agent, with the
// console's body; only an agent of the caller's own account; input checked; rate limited.
// Runs in cloud mode (HOPWATCH_DEPLOYMENT=1, where the e-mail is not asked) and checks the
// self-hosted e-mail rule on a second appliance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { Store } from '../support/built.js';
import { createWebUser } from '../support/web-users.js';
import { createAgentWithLink } from '../agents/support.js';

const password = 'Agent-support-pw-1';
let hw: Appliance;
let cookie: string;
const env = { HOPWATCH_ROOT_PASSWORD: password, HOPWATCH_DEPLOYMENT: '1', HOPWATCH_ENGINE: 'simulated' };

const ask = (query: Record<string, string | number>, body: string, c = cookie, on = hw) =>
  fetch(`${on.url}/cmd/cloudconnect-agent-get-support?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, {
    method: 'POST',
    headers: { cookie: c, 'content-type': 'application/json' },
    body,
  });

beforeAll(async () => {
  hw = await startAppliance({ env });
  cookie = await signIn(hw.url, 'admin', password);
});
afterAll(async () => {
  await hw?.dispose();
});

describe('an agent\'s Get Help', () => {
  it('stores a ticket that names the agent, keeps it per account, and checks its input', async () => {
    const { agent } = await createAgentWithLink(hw.url, cookie, 'First agent');
    const { agent: elsewhere } = await createAgentWithLink(hw.url, cookie, 'Moved away');
    const log = JSON.stringify([{ Time: '2026-11-25T04:00:00Z', Message: 'agent never connects' }]);

    const ok = await ask({ id: agent.ID, name: 'Ann', problemStatement: 'The agent does not connect' }, log);
    expect(ok.status).toBe(200);
    const ticketId = ((await ok.json()) as { Id: number }).Id;
    expect(ticketId).toBeGreaterThan(0);

    // A user of the account without any claim may ask too (it is no agent management).
    await createWebUser(hw.url, cookie, { email: 'viewer@example.org', password: 'Reads-only-pw-7' });
    const viewer = await signIn(hw.url, 'viewer@example.org', 'Reads-only-pw-7');
    expect((await ask({ id: agent.ID, problemStatement: 'Me too' }, '[]', viewer)).status).toBe(200);

    // Bad input: no id, no problem, an unknown agent; a guest.
    const noId = await ask({ problemStatement: 'x' }, '[]');
    expect(noId.status).toBe(400);
    expect(((await noId.json()) as { Error: string }).Error).toMatch(/id/);
    for (const id of ['99999999999999999999', '1e308', '-1', 'x']) expect((await ask({ id, problemStatement: 'x' }, '[]')).status, id).toBe(400);
    const blank = await ask({ id: agent.ID, problemStatement: '  ' }, '[]');
    expect(blank.status).toBe(400);
    expect(((await blank.json()) as { Error: string }).Error).toBe('Describe the problem.');
    const unknown = await ask({ id: 999_999, problemStatement: 'x' }, '[]');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { Error: string }).Error).toBe('Agent 999999 not found.');
    expect((await ask({ id: agent.ID, problemStatement: 'x' }, '[]', '')).status).toBe(401);

    // The stored ticket, read after a stop (one process per database file); then the second
    // agent moves to another account, and asking about it is a 404 like an unknown one.
    await hw.stop();
    const store = await Store.open(hw.dataDir);
    try {
      const row = await store.one<{ name: string; email: string; problem_statement: string; error_log: string }>(
        'SELECT name, email, problem_statement, error_log FROM support_tickets WHERE id = $1',
        [ticketId],
      );
      expect(row).toMatchObject({ name: 'Ann', email: '', problem_statement: 'The agent does not connect' });
      const stored = JSON.parse(row!.error_log) as { Agent: Record<string, unknown>; Log: unknown };
      expect(stored.Agent).toMatchObject({ ID: agent.ID, Name: 'First agent', Configured: false });
      expect(stored.Log).toEqual(JSON.parse(log));
      await store.run('UPDATE agents SET account_id = 999 WHERE id = $1', [elsewhere.ID]);
    } finally {
      await store.close();
    }
    hw = await startAppliance({ dataDir: hw.dataDir, port: hw.port, env });
    cookie = await signIn(hw.url, 'admin', password);
    const other = await ask({ id: elsewhere.ID, problemStatement: 'x' }, '[]');
    expect(other.status).toBe(404);
    expect(((await other.json()) as { Error: string }).Error).toBe(`Agent ${elsewhere.ID} not found.`);
  }, 120_000);

  it('answers 429 past ten requests an hour from one user', async () => {
    const { agent } = await createAgentWithLink(hw.url, cookie, 'Busy agent');
    const answers: number[] = [];
    for (let i = 0; i < 10; i++) answers.push((await ask({ id: agent.ID, problemStatement: `Attempt ${i}` }, '[]')).status);
    expect(answers).toEqual(Array(10).fill(200));
    const refused = await ask({ id: agent.ID, problemStatement: 'again' }, '[]');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { Error: string }).Error).toMatch(/^At most 10 support requests an hour/);
  });

  it('asks for a valid e-mail in self-hosted mode', async () => {
    const self = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: password, HOPWATCH_ENGINE: 'simulated' } });
    try {
      const c = await signIn(self.url, 'admin', password);
      const { agent } = await createAgentWithLink(self.url, c, 'First agent');
      const bad = await ask({ id: agent.ID, email: 'nope', problemStatement: 'x' }, '[]', c, self);
      expect(bad.status).toBe(400);
      // The one check of e-mail addresses (server/users/email-address.ts) says what is wrong.
      expect(((await bad.json()) as { Error: string }).Error).toBe('An e-mail address has exactly one @ (name@example.org).');
      expect((await ask({ id: agent.ID, email: 'ann@example.org', problemStatement: 'x' }, '[]', c, self)).status).toBe(200);
    } finally {
      await self.dispose();
    }
  });
});
