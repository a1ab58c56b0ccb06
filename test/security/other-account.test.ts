// The authorization matrix's "user of another account" row (issue 23), every cell: on a
// cloud appliance, account A holds one of each thing (a target, a summary, an agent, a
// LiveShare link, a comment, key-values), and a user of account B holding every claim calls
// every REST route and every /mainHub method with A's real ids where the call takes an id
// (made-up values elsewhere, as in the matrix). No answer may carry A's data (its texts are
// markers no call can echo from B's input), no registration may join A's groups, and
// afterwards A's things are all there, unchanged. Walks the route catalog, so a new call is
// covered without being listed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HttpTransportType } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedAccount } from '../../server/contract/accounts.js';
import { MainHubEventNames } from '../../server/contract/mainhub.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { readCatalog, type Catalog } from '../support/route-catalog.js';
import { callsOf, isConsoleFile, type Call } from '../support/authorization-matrix.js';
import { caller, connectHub, q, type WatchedConnection } from './support.js';

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
}

const Marker = 'A-secret';
const staff = { user: 'ops@provider.example', password: 'Staff-pw-other-1' };
let hw: Appliance;
let catalog: Catalog;
let call: ReturnType<typeof caller>;
/** Account A's things. */
const a = { cookie: '', summary: '', session: 0, agent: 0, shareId: '', comment: 0, alert: 0 };
const b = { email: 'bea@b.example', password: '', cookie: '' };

const json = async <T>(r: Response): Promise<T> => {
  const text = await r.text();
  expect(r.status, text).toBe(200);
  return JSON.parse(text) as T;
};

async function account(name: string, email: string): Promise<{ cookie: string; password: string }> {
  // LocalMachine granted: A's target runs from this server (a customer's needs the grant, issue 39 item 15).
  const body = JSON.stringify({ Name: name, UserEmail: email, LocalMachine: true });
  const made = await json<CreatedAccount>(await call('/api/staff/accounts', await signIn(hw.url, staff.user, staff.password), { method: 'POST', body }));
  const temp = await signIn(hw.url, email, made.TemporaryPassword);
  const password = `Own-pw-${made.Account.Id}-other`;
  await json(await call(`/api/Account?newPassword=${q(password)}`, temp, { method: 'PATCH' }));
  return { cookie: await signIn(hw.url, email, password), password };
}

beforeAll(async () => {
  catalog = await readCatalog();
  hw = await startAppliance({
    env: { HOPWATCH_DEPLOYMENT: '1', HOPWATCH_ENGINE: 'simulated', HOPWATCH_ROOT_PASSWORD: 'root-pw-other', HOPWATCH_STAFF_USER: staff.user, HOPWATCH_STAFF_PASSWORD: staff.password },
  });
  call = caller(hw);
  const A = await account('Account A', 'amy@a.example');
  a.cookie = A.cookie;
  const B = await account('Account B', b.email);
  Object.assign(b, B);

  // A's things, each named with the marker.
  const target = await json<{ ID: number }>(await call('/cmd/newtarget?target=127.0.0.1', a.cookie));
  a.session = target.ID;
  const summary = await json<{ UniqueID: string }>(await call(`/cmd/createsummary?name=${q(`${Marker}-summary`)}`, a.cookie));
  a.summary = summary.UniqueID;
  await json(await call(`/cmd/addhost?host=${a.session}&ID=${a.summary}`, a.cookie));
  a.agent = (await json<{ ID: number }>(await call(`/cmd/createAgent?name=${q(`${Marker}-agent`)}`, a.cookie))).ID;
  const link = await json<{ ShareId: string }>(
    await call('/api/liveshare', a.cookie, { method: 'POST', body: JSON.stringify({ SummaryID: `SUM-${a.summary}`, Description: `${Marker}-link`, Notes: `${Marker}-notes` }) }),
  );
  a.shareId = link.ShareId;
  const comment = await call('/cmd/createcomment', a.cookie, {
    method: 'PUT',
    body: JSON.stringify({ SessionWebId: String(a.session), Text: `${Marker}-comment`, When: new Date().toISOString(), Type: 0 }),
  });
  expect(comment.status, await comment.clone().text()).toBe(200);
  a.comment = ((await comment.json()) as { Id: number }).Id;
  const alert = await call('/api/alerts', a.cookie, {
    method: 'POST',
    body: JSON.stringify({ Name: `${Marker}-alert`, Condition: { Kind: 'latency', Hop: 0, Samples: 5, ThresholdMs: 1000 }, Events: ['start'], Targets: [a.session] }),
  });
  expect(alert.status, await alert.clone().text()).toBe(200);
  a.alert = ((await alert.json()) as { AlertID: number }).AlertID;
  // A host name on the target's first hop row, so A's target rows carry the marker too.
  const hub = await connectHub(hw, a.cookie, HttpTransportType.WebSockets);
  await hub.connection.invoke('UpdateHostValue', `${a.session}_h_1`, 'Name', `${Marker}-hop`);
  await hub.connection.stop();
  // Key-values under the name the made-up inputs use, in both scopes.
  for (const type of ['Account', 'AccountAndUser']) {
    await call(`/api/kvp/set?Type=${type}&KeyName=made-up&Value=${q(`${Marker}-kvp`)}`, a.cookie, { method: 'PUT' });
  }
}, 180_000);

afterAll(async () => {
  mkdirSync(resolve(import.meta.dirname, '../../test-results'), { recursive: true });
  if (hw) writeFileSync(join(resolve(import.meta.dirname, '../../test-results'), 'other-account-server.log'), hw.output());
  await hw?.dispose();
});

/** A's id for an input by its name (and the call's name for the hub's plain "id"). */
function idFor(name: string, callName: string, s: Schema | undefined): unknown {
  const n = name.toLowerCase();
  const isString = [s?.type ?? 'string'].flat()[0] === 'string';
  if (/share/.test(n)) return a.shareId;
  if (/summary/.test(n)) return isString ? a.summary : Number(a.summary);
  if (/agent|sentinel/.test(n) || (n === 'id' && /agent|reconnect|downloadlink/i.test(callName))) return a.agent;
  if (/comment/.test(n) || (n === 'id' && /comment/i.test(callName))) return a.comment;
  if (/alert/.test(n) || (/^(id|actionid)$/.test(n) && /alerts/i.test(callName))) return a.alert;
  if (n === 'id' && /summar/i.test(callName)) return isString ? a.summary : Number(a.summary);
  if (/^(id|ids|targetid|sessionid|webid|sessionwebid|host|target)$/.test(n)) return isString ? String(a.session) : a.session;
  return undefined;
}

/** A value for an input: A's id where the input names one, else a made-up value. */
function value(name: string, callName: string, s: Schema | undefined): unknown {
  if (s?.enum) return s.enum[0];
  const type = [s?.type ?? 'string'].flat()[0];
  if (type === 'array') return [value(name, callName, s?.items)];
  if (type === 'object') return Object.fromEntries((s?.required ?? Object.keys(s?.properties ?? {})).map((k) => [k, value(k, callName, s?.properties?.[k])]));
  const id = idFor(name, callName, s);
  if (id !== undefined) return id;
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return false;
  return /address/i.test(name) ? 'not a host!' : 'made-up';
}

function requestOf(c: Call): { path: string; init: RequestInit } {
  const route = c.route!;
  const method = [route.method].flat()[0];
  const schema = (route.schema ?? {}) as { querystring?: Schema; params?: Schema; body?: Schema };
  const path = route.url.replace(/:(\w+)/g, (_m, p: string) => encodeURIComponent(String(value(p, c.name, schema.params?.properties?.[p]))));
  const query = new URLSearchParams();
  const qs = schema.querystring;
  for (const k of qs?.required ?? Object.keys(qs?.properties ?? {})) {
    for (const item of [value(k, c.name, qs?.properties?.[k])].flat()) query.append(k, String(item));
  }
  const withBody = method !== 'GET' && method !== 'DELETE';
  const body = withBody ? JSON.stringify(schema.body ? value('', c.name, schema.body) : {}) : undefined;
  return { path: `${path}${query.size ? `?${query}` : ''}`, init: { method, ...(body !== undefined ? { body, headers: { 'content-type': 'application/json' } } : {}) } };
}

/** Calls that end B's own sign-in (it signs in again after them). */
const signsOut = /Logout|\/api\/Account$|HubToken/;

describe('a user of another account (every claim) reaches nothing of account A', () => {
  it('REST: no answer carries A\'s data', async () => {
    const leaks: string[] = [];
    let cells = 0;
    for (const c of callsOf(catalog).filter((x) => x.kind === 'REST' && !(x.route && isConsoleFile(x.route)))) {
      if (/^(GET|POST) \/api\/Account\/Login$/.test(c.name)) continue;
      const { path, init } = requestOf(c);
      const r = await call(path, b.cookie, init);
      const text = await r.text();
      cells++;
      if (text.includes(Marker)) leaks.push(`${c.name} -> ${r.status} ${text.slice(0, 200)}`);
      if (r.status === 401 || signsOut.test(c.name)) b.cookie = await signIn(hw.url, b.email, b.password);
    }
    expect(leaks).toEqual([]);
    expect(cells).toBeGreaterThan(40);
  }, 600_000);

  it('hub: no answer carries A\'s data and no registration joins A\'s groups', async () => {
    const leaks: string[] = [];
    let hub: WatchedConnection = await connectHub(hw, b.cookie, HttpTransportType.WebSockets);
    for (const [name, args] of catalog.hubMethods) {
      const callArgs = args.map((arg) => value(arg.name, name, arg.schema as Schema));
      const answer = await hub.connection.invoke(name, ...callArgs).then(
        (result: unknown) => ({ ok: true, text: JSON.stringify(result ?? null) }),
        (err: Error) => ({ ok: false, text: err.message }),
      );
      if (answer.text.includes(Marker)) leaks.push(`${name} -> ${answer.text.slice(0, 200)}`);
      // Joining a group of A's target or summary would deliver A's live data.
      if (/^Register/.test(name) && answer.ok) leaks.push(`${name}(${JSON.stringify(callArgs)}) was accepted`);
      if (hub.connection.state !== 'Connected') hub = await connectHub(hw, (b.cookie = await signIn(hw.url, b.email, b.password)), HttpTransportType.WebSockets);
    }
    await hub.connection.stop();
    expect(leaks).toEqual([]);
  }, 300_000);

  it("B's hub hears no event of A's changes", async () => {
    const heard: string[] = [];
    const hub = await connectHub(hw, (b.cookie = await signIn(hw.url, b.email, b.password)), HttpTransportType.WebSockets);
    for (const name of MainHubEventNames) hub.connection.on(name, (...args: unknown[]) => heard.push(`${name} ${JSON.stringify(args).slice(0, 120)}`));
    // A's hub sees its own changes (so they do raise events), B's none of them.
    const aHeard: string[] = [];
    const aHub = await connectHub(hw, a.cookie, HttpTransportType.WebSockets);
    for (const name of MainHubEventNames) aHub.connection.on(name, () => aHeard.push(name));
    const summary = await json<{ UniqueID: string }>(await call(`/cmd/createsummary?name=${q(`${Marker}-second`)}`, a.cookie));
    await json(await call(`/cmd/updateSentinelName?agentId=${a.agent}&newName=${q(`${Marker}-agent`)}`, a.cookie));
    await json(await call(`/cmd/newtarget?target=127.0.0.1&traceInterval=1`, a.cookie));
    await call(`/cmd/closesummary?ID=${summary.UniqueID}`, a.cookie);
    await expect.poll(() => aHeard.length, { timeout: 10_000 }).toBeGreaterThan(2);
    // Give any stray event to B the same time A's took, and more.
    await new Promise((r) => setTimeout(r, 2000));
    await Promise.all([hub.connection.stop(), aHub.connection.stop()]);
    expect(heard).toEqual([]);
  });

  it("afterwards A's things are all there, unchanged", async () => {
    const summaries = await json<{ UniqueID: string; Name: string }[]>(await call('/cmd/getsummaries', a.cookie));
    expect(summaries.find((s) => s.UniqueID === a.summary)?.Name).toBe(`${Marker}-summary`);
    const agents = await json<{ ID: number; Name: string }[]>(await call('/cmd/getAgentsListWithDetails', a.cookie));
    expect(agents.find((g) => g.ID === a.agent)?.Name).toBe(`${Marker}-agent`);
    const links = await json<{ ShareId: string; Active: boolean; Notes: string }[]>(await call('/api/liveshare', a.cookie));
    expect(links.find((l) => l.ShareId === a.shareId)).toMatchObject({ Active: true, Notes: `${Marker}-notes` });
    const alert = await json<{ Name: string; Targets: number[] }>(await call(`/api/alerts/${a.alert}`, a.cookie));
    expect(alert).toMatchObject({ Name: `${Marker}-alert`, Targets: [a.session] });
    const kvp = await call('/api/kvp/get?Type=Account&KeyName=made-up', a.cookie);
    expect(await kvp.json()).toBe(`${Marker}-kvp`);
    const targets = await call(`/cmd/agentTargets?agentId=-1`, a.cookie);
    expect(targets.status).toBe(200);
    expect(((await targets.json()) as { ID: number }[]).map((t) => t.ID)).toContain(a.session);
  });
});
