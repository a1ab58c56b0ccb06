// Comments over real HTTP: create, read by range, update, delete, validation, claims, restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { seedSessions, type SeededSession } from './seed-sessions.js';
import { createWebUser } from '../support/web-users.js';

const RootPassword = 'comments-root-pw';
let hw: Appliance;
let admin: string;
let plain: string;
let target: SeededSession;
let other: SeededSession;
let foreign: SeededSession;

const q = encodeURIComponent;
const send = (method: string, path: string, body?: unknown, cookie = admin) =>
  fetch(`${hw.url}${path}`, {
    method,
    headers: { cookie, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const create = (body: unknown, cookie = admin) => send('PUT', '/cmd/createcomment', body, cookie);
const list = async (webId: string | number, start: string | number, end: string | number, cookie = admin) => {
  const r = await send('GET', `/cmd/getcomments?sessionWebId=${q(String(webId))}&startDate=${q(String(start))}&endDate=${q(String(end))}`, undefined, cookie);
  expect(r.status).toBe(200);
  return r.json();
};
async function expectError(r: Response, status: number, text?: RegExp) {
  const body = await r.json();
  expect(r.status, JSON.stringify(body)).toBe(status);
  expect(typeof body.Error).toBe('string');
  if (text) expect(body.Error).toMatch(text);
}

const t0 = Date.parse('2024-05-01T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  const first = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: RootPassword } });
  await first.stop();
  [target, other, foreign] = await seedSessions(first.dataDir, [
    { target: '127.0.0.1', state: 1 },
    { target: '127.0.0.2', state: 1 },
    { target: '127.0.0.3', state: 1, accountId: 999 },
  ]);
  hw = await first.restart();
  admin = await signIn(hw.url, 'admin', RootPassword);
  await createWebUser(hw.url, admin, { email: 'reader@example.org', password: 'plain-pw' });
  plain = await signIn(hw.url, 'reader@example.org', 'plain-pw');
});
afterAll(async () => {
  await hw?.dispose();
});

describe('comments', () => {
  it('round-trips: create, list in time order by range, update, delete', async () => {
    const later = await create({ When: iso(t0 + 60_000), Text: 'Second', Type: 0, SessionWebId: String(target.id), ExtraAttributesJson: '' });
    expect(later.status).toBe(200);
    const second = await later.json();
    expect(second).toEqual({ Id: expect.any(Number), When: iso(t0 + 60_000), Text: 'Second', Type: 0, SessionWebId: String(target.id), ExtraAttributesJson: '' });

    // A row id names its target; the answer carries the target id.
    const firstR = await create({ When: iso(t0), Text: 'First: route change', Type: 2, SessionWebId: `${target.id}_h_4`, ExtraAttributesJson: '{"hop":4}' });
    const first = await firstR.json();
    expect(first).toMatchObject({ Text: 'First: route change', Type: 2, SessionWebId: String(target.id), ExtraAttributesJson: '{"hop":4}' });
    await create({ When: iso(t0 + 30_000), Text: 'On another target', SessionWebId: String(other.id) });

    // Both ISO and epoch ms work for the range; the range is inclusive; only this target's comments.
    expect((await list(target.id, iso(t0 - 1000), iso(t0 + 3_600_000))).map((c: { Text: string }) => c.Text)).toEqual(['First: route change', 'Second']);
    expect((await list(`${target.id}_h_1`, t0, t0 + 60_000)).map((c: { Id: number }) => c.Id)).toEqual([first.Id, second.Id]);
    expect(await list(target.id, t0 + 1, t0 + 59_999)).toEqual([]);
    // Any signed-in user of the account can read them.
    expect(await list(target.id, t0, t0 + 60_000, plain)).toHaveLength(2);

    const upd = await send('PATCH', '/cmd/updatecomment', { ...first, Text: 'First, edited', When: iso(t0 + 120_000) });
    expect(upd.status).toBe(200);
    expect(await upd.json()).toMatchObject({ Id: first.Id, Text: 'First, edited', When: iso(t0 + 120_000), Type: 2 });
    expect((await list(target.id, t0, t0 + 200_000)).map((c: { Text: string }) => c.Text)).toEqual(['Second', 'First, edited']);

    const del = await send('DELETE', `/cmd/deletecomment?sessionWebId=${target.id}&commentId=${second.Id}`);
    expect(del.status).toBe(204);
    await expectError(await send('DELETE', `/cmd/deletecomment?sessionWebId=${target.id}&commentId=${second.Id}`), 404);
    expect((await list(target.id, t0, t0 + 200_000)).map((c: { Id: number }) => c.Id)).toEqual([first.Id]);
  });

  it('rejects bad comments with the spec texts and writes nothing', async () => {
    const base = { When: iso(t0 + 5000), SessionWebId: String(other.id) };
    await expectError(await create({ ...base, Text: '' }), 400, /^Comment not saved - no text entered\.$/);
    await expectError(await create({ ...base, Text: '   ' }), 400, /^Comment not saved - no text entered\.$/);
    await expectError(await create({ When: base.When, SessionWebId: base.SessionWebId }), 400, /no text entered/);
    await expectError(await create({ ...base, Text: 'x'.repeat(4001) }), 400, /at most 4000/);
    await expectError(await create({ ...base, Text: 'future', When: iso(Date.now() + 10 * 60_000) }), 400, /future/);
    await expectError(await create({ ...base, Text: 'bad time', When: 'not a time' }), 400, /When/);
    await expectError(await create({ ...base, Text: 'bad extra', ExtraAttributesJson: '{oops' }), 400, /JSON/);
    await expectError(await create({ Text: 'no target', When: base.When }), 400);
    await expectError(await create({ ...base, Text: 'unknown', SessionWebId: '777777' }), 404, /Target 777777 not found/);
    await expectError(await create({ ...base, Text: 'other account', SessionWebId: String(foreign.id) }), 404);
    await expectError(await create({ ...base, Text: 'garbage id', SessionWebId: 'abc' }), 400);
    expect(await list(other.id, t0, t0 + 10_000)).toEqual([]);

    // Exactly 4000 characters and a time a few seconds ahead (clock skew) are accepted.
    const ok = await create({ ...base, Text: 'y'.repeat(4000), When: iso(Date.now() + 5000) });
    expect(ok.status).toBe(200);
    const okC = await ok.json();

    await expectError(await send('PATCH', '/cmd/updatecomment', { Id: okC.Id, Text: '' }), 400, /no text entered/);
    await expectError(await send('PATCH', '/cmd/updatecomment', { Id: 999999, Text: 'x' }), 404);
    await expectError(await send('PATCH', '/cmd/updatecomment', { Text: 'x' }), 400);
    // A comment does not move to another target.
    await expectError(await send('PATCH', '/cmd/updatecomment', { Id: okC.Id, Text: 'moved', SessionWebId: String(target.id) }), 404);
    await expectError(await send('DELETE', `/cmd/deletecomment?sessionWebId=${target.id}&commentId=${okC.Id}`), 404);

    await expectError(await send('GET', `/cmd/getcomments?sessionWebId=${other.id}&startDate=${t0}`), 400, /endDate/);
    await expectError(await send('GET', `/cmd/getcomments?sessionWebId=${other.id}&endDate=${t0}`), 400, /startDate/);
    await expectError(await send('GET', `/cmd/getcomments?sessionWebId=${other.id}&startDate=${t0 + 1}&endDate=${t0}`), 400);
    await expectError(await send('GET', `/cmd/getcomments?sessionWebId=${other.id}&startDate=yesterday&endDate=${t0}`), 400);
    await expectError(await send('GET', `/cmd/getcomments?sessionWebId=${foreign.id}&startDate=${t0}&endDate=${t0}`), 404);
    expect((await send('DELETE', `/cmd/deletecomment?sessionWebId=${other.id}&commentId=${okC.Id}`)).status).toBe(204);
  });

  it('needs TargetManagement to create, update or delete', async () => {
    const mine = await (await create({ When: iso(t0 + 7000), Text: 'admin note', SessionWebId: String(other.id) })).json();
    await expectError(await create({ When: iso(t0), Text: 'reader note', SessionWebId: String(other.id) }, plain), 403, /TargetManagement/);
    await expectError(await send('PATCH', '/cmd/updatecomment', { Id: mine.Id, Text: 'changed' }, plain), 403, /TargetManagement/);
    await expectError(await send('DELETE', `/cmd/deletecomment?sessionWebId=${other.id}&commentId=${mine.Id}`, undefined, plain), 403);
    expect((await list(other.id, t0, t0 + 10_000)).map((c: { Text: string }) => c.Text)).toEqual(['admin note']);
    expect((await fetch(`${hw.url}/cmd/getcomments?sessionWebId=${other.id}&startDate=0&endDate=1`)).status).toBe(401);
  });

  it('keeps comments across a restart', async () => {
    const before = await list(target.id, 0, Date.now());
    expect(before.length).toBeGreaterThan(0);
    hw = await hw.restart();
    expect(await list(target.id, 0, Date.now())).toEqual(before);
  });
});
