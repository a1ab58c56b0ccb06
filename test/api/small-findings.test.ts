// Issue 39 item 14, the small ones, each against the built appliance: a refused
// POST /api/Account/Impersonate made while impersonating goes to the impersonation audit;
// /metrics takes the bearer scheme in any case (RFC 9110: schemes are case-insensitive); a
// blank ExpirationDate clears a LiveShare link's expiry while a missing one keeps it
// (docs/liveshare.md "Edit semantics").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImpersonationAuditEntry } from '../../server/contract/account.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { createWebUser } from '../support/web-users.js';

const MetricsToken = 'small-findings-metrics-token';
let hw: Appliance;
let root: string;
const ids: Record<string, number> = {};

beforeAll(async () => {
  hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'Root-small-pw-1', HOPWATCH_METRICS_TOKEN: MetricsToken } });
  root = await signIn(hw.url, 'admin', 'Root-small-pw-1');
  for (const [name, roles] of [
    ['ivy', ['ImpersonateUser', 'TargetManagement']],
    ['jack', ['TargetManagement']],
  ] as const) {
    ids[name] = (await createWebUser(hw.url, root, { email: `${name}@example.org`, password: `Secret-${name.length}-pw-Kx`, roles: [...roles] })).Id;
  }
}, 120_000);
afterAll(async () => {
  await hw?.dispose();
});

const call = (path: string, cookie: string, init: RequestInit = {}) =>
  fetch(`${hw.url}${path}`, { ...init, headers: { cookie, 'content-type': 'application/json', ...(init.headers ?? {}) } });

describe('the impersonation audit', () => {
  it('records a refused POST /api/Account/Impersonate made while impersonating', async () => {
    const ivy = await signIn(hw.url, 'ivy@example.org', 'Secret-3-pw-Kx');
    expect((await call(`/api/Account/Impersonate?userId=${ids.jack}`, ivy, { method: 'POST' })).status).toBe(200);
    // As jack (no ImpersonateUser): refused, and it must be on the record like any other call.
    const again = await call(`/api/Account/Impersonate?userId=${ids.ivy}`, ivy, { method: 'POST' });
    expect(again.status).toBe(403);
    expect((await call('/api/Account/ClearImpersonation', ivy, { method: 'POST' })).status).toBe(200);
    const audit = (await (await call('/api/user/ImpersonationAudit', root)).json()) as ImpersonationAuditEntry[];
    const rows = audit.filter((r) => r.ActorId === ids.ivy).sort((a, b) => a.Id - b.Id);
    expect(rows.map((r) => [r.Action, r.Detail, r.Status])).toEqual([
      ['start', '', 0],
      ['call', 'POST /api/Account/Impersonate', 403],
      ['end', '', 0],
    ]);
  });
});

describe('/metrics', () => {
  for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
    it(`takes the token with the scheme written "${scheme}"`, async () => {
      const r = await fetch(`${hw.url}/metrics`, { headers: { authorization: `${scheme} ${MetricsToken}` } });
      expect(r.status, await r.clone().text()).toBe(200);
      expect(await r.text()).toContain('hopwatch_agents_online');
    });
  }

  it('still refuses a wrong token or another scheme', async () => {
    expect((await fetch(`${hw.url}/metrics`, { headers: { authorization: 'bearer wrong' } })).status).toBe(401);
    expect((await fetch(`${hw.url}/metrics`, { headers: { authorization: `Basic ${MetricsToken}` } })).status).toBe(401);
  });
});

describe('a LiveShare link edit', () => {
  it('clears the expiry with a blank ExpirationDate and keeps it when the field is left out', async () => {
    const s = (await (await call(`/cmd/createsummary?name=${encodeURIComponent('Expiring')}`, root)).json()) as { UniqueID: string };
    const expires = new Date(Date.now() + 7 * 86400_000).toISOString();
    const created = await call('/api/liveshare', root, { method: 'POST', body: JSON.stringify({ SummaryID: `SUM-${s.UniqueID}`, ExpirationDate: expires }) });
    expect(created.status).toBe(200);
    const link = (await created.json()) as { ShareId: string; ExpirationDate: string | null };
    expect(link.ExpirationDate).not.toBeNull();
    const put = async (body: object) => {
      const r = await call(`/api/liveshare/${link.ShareId}`, root, { method: 'PUT', body: JSON.stringify(body) });
      expect(r.status, await r.clone().text()).toBe(200);
      return (await r.json()) as { ExpirationDate: string | null; Description: string };
    };
    // Left out: kept.
    expect((await put({ Description: 'Renamed' })).ExpirationDate).toBe(link.ExpirationDate);
    // Blank: never expires (the edit form's empty field).
    const cleared = await put({ Description: 'Renamed', ExpirationDate: '' });
    expect(cleared.ExpirationDate).toBeNull();
    // And set again, then cleared by a blank of spaces.
    expect((await put({ ExpirationDate: expires })).ExpirationDate).not.toBeNull();
    expect((await put({ ExpirationDate: '  ' })).ExpirationDate).toBeNull();
  });
});
