// The authorization matrix of issue 26, generated, not hand-listed: every registered REST
// route (the app's route catalog) and every /mainHub method (the hub definition) is called
// as each caller row of test/support/authorization-matrix.ts, and each answer is checked
// against what the call's declared access says (401, 403, or anything else). A call without
// a declaration fails here (and already fails to register). Inputs are made up from the
// call's schema and name nothing that exists (ids far past any stored one, a host text the
// server refuses before any look-up), so allowed calls answer 400/404 and change nothing
// that matters; 401/403 come before input checks, so refused calls are refused whatever
// they sent.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HttpTransportType } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Access } from '../../server/http/access.js';
import { Claim, TemporaryPasswordText } from '../../server/contract/account.js';
import { needsClaim } from '../../server/http/access.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { readCatalog, type Catalog } from '../support/route-catalog.js';
import { CallerRows, callsOf, claimsFor, type Call, type Expected } from '../support/authorization-matrix.js';
import { connectHub, createUser, liveShareVisitor, sidekickExportVisitor, type WatchedConnection } from './support.js';
import { hostedCustomer, type HostedCustomer } from './hosted-customer.js';

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
}

/** An id no test creates: past every stored one, within the 32-bit bound of the schemas. */
const MadeUpId = 2_147_480_000;

/** A value the schema accepts that names nothing real; hosts are texts refused before DNS. */
function madeUp(name: string, s: Schema | undefined): unknown {
  if (s?.enum) return s.enum[0];
  const type = [s?.type ?? 'string'].flat()[0];
  switch (type) {
    case 'integer':
    case 'number':
      return MadeUpId;
    case 'boolean':
      return false;
    case 'array':
      return [madeUp(name, s?.items)];
    case 'object':
      return Object.fromEntries((s?.required ?? []).map((k) => [k, madeUp(k, s?.properties?.[k])]));
    default:
      return /host|target|address/i.test(name) ? 'not a host!' : 'made-up';
  }
}

function requestOf(call: Call): { path: string; init: RequestInit } {
  const route = call.route!;
  const method = [route.method].flat()[0];
  const schema = (route.schema ?? {}) as { querystring?: Schema; params?: Schema; body?: Schema };
  const path = route.url.replace(/:(\w+)/g, (_m, p: string) => encodeURIComponent(String(madeUp(p, schema.params?.properties?.[p]))));
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries((madeUp('', schema.querystring ?? { type: 'object' }) ?? {}) as Record<string, unknown>)) {
    for (const item of [v].flat()) query.append(k, String(item));
  }
  const withBody = method !== 'GET' && method !== 'DELETE';
  const body = withBody ? JSON.stringify(schema.body ? madeUp('', schema.body) : {}) : undefined;
  return {
    path: `${path}${query.size ? `?${query}` : ''}`,
    init: { method, ...(body !== undefined ? { body, headers: { 'content-type': 'application/json' } } : {}) },
  };
}

const results = resolve(import.meta.dirname, '../../test-results');
let hw: Appliance;
let standard: Appliance;
/** A Sidekick-licence (112) server on the simulated engine: the Sidekick export visitor row. */
let sidekick: Appliance;
/** A hosted (HOPWATCH_DEPLOYMENT=1) server with a staff user and a customer account: the hosted customer row. */
let hosted: Appliance;
let customer: HostedCustomer;
let catalog: Catalog;
let calls: Call[];
let rootCookie: string;
let standardRoot: string;
/** The liveshareid cookie of an active link to a summary (the LiveShare visitor row). */
let visitorCookie: string;
/** The liveshareid cookie of a Sidekick export link on the Sidekick server. */
let sidekickVisitorCookie: string;
/** Signed-in users by their claim set ("" = none), created as needed. */
const users = new Map<string, { email: string; password: string; cookie: string }>();
let userCount = 0;

beforeAll(async () => {
  catalog = await readCatalog();
  calls = callsOf(catalog);
  [hw, standard, sidekick, hosted] = await Promise.all([
    startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'root-pw-matrix', ...staffEnv } }),
    startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'root-pw-matrix', HOPWATCH_LICENSE_MODE: '1', ...staffEnv } }),
    // Its discovery traces the loopback external sources of test appliances on the simulated engine.
    startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'root-pw-matrix', HOPWATCH_LICENSE_MODE: '112', HOPWATCH_ENGINE: 'simulated' } }),
    startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'root-pw-matrix', HOPWATCH_DEPLOYMENT: '1', HOPWATCH_ENGINE: 'simulated', ...staffEnv } }),
  ]);
  rootCookie = await signIn(hw.url, 'admin', 'root-pw-matrix');
  standardRoot = await signIn(standard.url, 'admin', 'root-pw-matrix');
  visitorCookie = await liveShareVisitor(hw, rootCookie);
  sidekickVisitorCookie = await sidekickExportVisitor(sidekick, await signIn(sidekick.url, 'admin', 'root-pw-matrix'));
  customer = await hostedCustomer(hosted, { user: staffEnv.HOPWATCH_STAFF_USER, password: staffEnv.HOPWATCH_STAFF_PASSWORD }, 'Matrix customer', 'matrix-customer@example.org');
}, 180_000);

afterAll(async () => {
  // The servers' logs, for a cell that answered other than declared (or a server that died).
  mkdirSync(results, { recursive: true });
  if (hw) writeFileSync(join(results, 'authz-server.log'), hw.output());
  if (standard) writeFileSync(join(results, 'authz-standard-server.log'), standard.output());
  if (sidekick) writeFileSync(join(results, 'authz-sidekick-server.log'), sidekick.output());
  if (hosted) writeFileSync(join(results, 'authz-hosted-server.log'), hosted.output());
  await Promise.all([hw?.dispose(), standard?.dispose(), sidekick?.dispose(), hosted?.dispose()]);
});

/**
 * The Staff claim is held only by staff users (never assignable, not root's): each server has
 * one from the environment, who stands in for root (and for "exactly the needed claim") on
 * the calls that need Staff. Staff users also hold ImpersonateUser.
 */
const staffEnv = { HOPWATCH_STAFF_USER: 'staff-matrix@example.org', HOPWATCH_STAFF_PASSWORD: 'Staff-matrix-pw-1' };
const staffCookies = new Map<Appliance, string>();
async function staffCaller(server: Appliance) {
  const again = async () => {
    const cookie = await signIn(server.url, staffEnv.HOPWATCH_STAFF_USER, staffEnv.HOPWATCH_STAFF_PASSWORD);
    staffCookies.set(server, cookie);
    return cookie;
  };
  return { server, cookie: staffCookies.get(server) ?? (await again()), again };
}

/** The appliance and a signed-in cookie for a row and a call. */
async function callerFor(row: string, access: Access): Promise<{ server: Appliance; cookie?: string; again: () => Promise<string> }> {
  if (row === 'anonymous') return { server: hw, cookie: undefined, again: async () => '' };
  if (row === 'liveShare') return { server: hw, cookie: visitorCookie, again: async () => visitorCookie };
  if (row === 'sidekickVisitor') return { server: sidekick, cookie: sidekickVisitorCookie, again: async () => sidekickVisitorCookie };
  if (row === 'hostedCustomer') return { server: hosted, cookie: customer.cookie, again: async () => (customer.cookie = await signIn(hosted.url, customer.email, customer.password)) };
  const staffCall = needsClaim(access) === Claim.Staff;
  if (row === 'noLicence') {
    if (staffCall) return staffCaller(standard);
    return { server: standard, cookie: standardRoot, again: async () => (standardRoot = await signIn(standard.url, 'admin', 'root-pw-matrix')) };
  }
  const claims = claimsFor(row, access);
  if (staffCall && (claims === 'root' || claims.includes(Claim.Staff))) return staffCaller(hw);
  if (claims === 'root') return { server: hw, cookie: rootCookie, again: async () => (rootCookie = await signIn(hw.url, 'admin', 'root-pw-matrix')) };
  const temporary = row === 'temporaryPassword';
  const key = `${temporary ? 'temporary:' : ''}${[...claims].sort().join(',')}`;
  let u = users.get(key);
  if (!u) {
    const email = `matrix-${++userCount}@example.org`;
    const password = `Matrix-pw-${userCount}`;
    await createUser(hw, rootCookie, email, password, [...claims], temporary);
    u = { email, password, cookie: await signIn(hw.url, email, password) };
    users.set(key, u);
  }
  const user = u;
  return { server: hw, cookie: user.cookie, again: async () => (user.cookie = await signIn(hw.url, user.email, user.password)) };
}

/**
 * How an answer counts. A 401 is a refusal when it says the caller is not signed in: sign-in
 * itself answers 401 to the made-up credentials, which is its answer, not a refusal.
 */
const verdict = (status: number, body: string): Expected =>
  status === 403 ? 403 : status === 401 && body.includes(NotSignedIn) ? 401 : 'allowed';
const NotSignedIn = 'You are not signed in.';

/** A refusal by a hub method's declaration or a service's claim check. */
const hubRefusal = /^This needs the /;

describe('authorization matrix', () => {
  it('every route and hub method declares who may call it', () => {
    const undeclared = calls.filter((c) => c.access === undefined).map((c) => `${c.kind} ${c.name}`);
    expect(undeclared).toEqual([]);
    expect(calls.length).toBeGreaterThan(40);
  });

  for (const row of CallerRows) {
    // Run with its own appliance and data by the suite it names, every cell.
    if (row.runBy) continue;
    if (row.skip) {
      it.skip(`${row.title}: ${row.skip}`, () => undefined);
      continue;
    }

    it(`REST routes called as ${row.title} answer as declared`, async () => {
      const wrong: string[] = [];
      let cells = 0;
      for (const call of calls.filter((c) => c.kind === 'REST')) {
        const who = await callerFor(row.key, call.access);
        const { path, init } = requestOf(call);
        const r = await fetch(`${who.server.url}${path}`, { ...init, headers: { ...(init.headers ?? {}), ...(who.cookie ? { cookie: who.cookie } : {}) } });
        const text = await r.text();
        const want = row.expected(call.access);
        cells++;
        if (verdict(r.status, text) !== want) wrong.push(`${call.name} as ${row.title}: ${r.status} ${text.slice(0, 200)}, declared ${want}`);
        else if (want !== 'allowed' && !/^\{"Error":".+"\}$/.test(text)) wrong.push(`${call.name}: refusal body ${text.slice(0, 200)}`);
        // A call may end the caller's session (Logout): sign in again for the next one.
        if (who.cookie && (await fetch(`${who.server.url}/api/Account/GetCurrentUser`, { headers: { cookie: who.cookie } })).status !== 200) await who.again();
      }
      console.log(`[authz] REST, ${row.title}: ${cells} cells, ${wrong.length} wrong`);
      expect(wrong).toEqual([]);
      // About 150 routes, each followed by a sign-in check: minutes on a loaded machine.
    }, 300_000);

    it(`/mainHub methods called as ${row.title} answer as declared`, async () => {
      const hubCalls = calls.filter((c) => c.kind === 'hub');
      if (row.key === 'anonymous') {
        // No anonymous hub connection exists: negotiation itself is refused, so no method runs.
        for (const call of hubCalls) expect(row.expected(call.access), call.name).toBe(401);
        const r = await fetch(`${hw.url}/mainHub/negotiate?negotiateVersion=1`, { method: 'POST' });
        expect(r.status).toBe(401);
        expect(await r.json()).toEqual({ Error: expect.any(String) });
        return;
      }
      if (row.key === 'temporaryPassword') {
        // No connection before the temporary password is replaced: negotiation answers 403.
        for (const call of hubCalls) expect(row.expected(call.access), call.name).toBe(403);
        const who = await callerFor(row.key, 'signedIn');
        const r = await fetch(`${hw.url}/mainHub/negotiate?negotiateVersion=1`, { method: 'POST', headers: { cookie: who.cookie! } });
        expect(r.status).toBe(403);
        expect(await r.json()).toEqual({ Error: TemporaryPasswordText });
        return;
      }
      const wrong: string[] = [];
      const connections = new Map<string, WatchedConnection>();
      try {
        for (const call of hubCalls) {
          const who = await callerFor(row.key, call.access);
          let hub = connections.get(who.cookie!);
          if (!hub) {
            hub = await connectHub(who.server, who.cookie!, HttpTransportType.WebSockets);
            connections.set(who.cookie!, hub);
          }
          const args = (catalog.hubMethods.find(([n]) => n === call.name)?.[1] ?? []).filter((a) => !a.optional).map((a) => madeUp(a.name, a.schema as Schema));
          const error = await hub.connection.invoke(call.name, ...args).then(
            () => undefined,
            (e: Error) => e.message,
          );
          const got: Expected = error !== undefined && hubRefusal.test(error.replace(/^.*HubException: /, '')) ? 403 : 'allowed';
          const want = row.expected(call.access);
          if (got !== want) wrong.push(`${call.name} as ${row.title}: ${error ?? 'answered'}, declared ${want}`);
          expect(hub.connection.state, `${call.name} closed the connection`).toBe('Connected');
        }
      } finally {
        for (const c of connections.values()) await c.connection.stop();
      }
      console.log(`[authz] hub, ${row.title}: ${hubCalls.length} cells, ${wrong.length} wrong`);
      expect(wrong).toEqual([]);
    });
  }
});
