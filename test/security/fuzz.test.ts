// A fuzz pass over every registered route and every /mainHub method (issue 14). The routes
// come from the app itself (buildApp's route catalog: method, url, schema), the hub methods
// from the hub definition (their argument schemas), so a new call is fuzzed without being
// listed here. Each is called on a running appliance, as the signed-in admin, with wrong
// types, huge and malformed strings and numbers, bad percent-escapes in names and values,
// deep JSON and oversized bodies. Asserted: no answer is 5xx, every 4xx body is
// {"Error": text}, no hub completion is the "unexpected error" one, the process answers
// /readyz after each route's batch, and it logged no error while being fuzzed.
// Safety: a value that names a host or target is only ever loopback or a text the server
// refuses before any DNS look-up (checked by `safeForHost` on every request sent), so the
// fuzz sends no traffic off this machine.
import { isIP } from 'node:net';
import { HttpTransportType } from '@microsoft/signalr';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArgSpec } from '../../server/hub/index.js';
import { isDnsName } from '../../server/targets/target-text.js';
import { decodeLeniently } from '../../server/http/log-redaction.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { readCatalog } from '../support/route-catalog.js';
import { connectHub, createUser, expectAlive, type WatchedConnection } from './support.js';

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
}

interface Route {
  method: string;
  url: string;
  query?: Schema;
  params?: Schema;
  body?: Schema;
  bodyLimit: number;
}

const DefaultBodyLimit = 256 * 1024;
let routes: Route[] = [];
let catalog: RouteOptions[] = [];
let hubMethods: [string, readonly ArgSpec[]][] = [];

// ---- What the app registers -------------------------------------------------------------

beforeAll(async () => {
  const read = await readCatalog();
  catalog = read.routes;
  hubMethods = read.hubMethods;
  for (const r of catalog) {
    for (const method of [r.method].flat()) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      const s = (r.schema ?? {}) as { querystring?: Schema; params?: Schema; body?: Schema };
      routes.push({ method, url: r.url, query: s.querystring, params: s.params, body: s.body, bodyLimit: r.bodyLimit ?? DefaultBodyLimit });
    }
  }
}, 120_000);

// ---- Values ------------------------------------------------------------------------------

/** Texts sent as they are in a query (bad or tricky escapes). */
const rawTexts = ['%', '%zz', '%E0%A4%A', '%00', '%C0%AF', '%2e%2e%2f%2e%2e%2f', '%%32%65', '%u0041'];
/** Texts sent percent-encoded. */
const texts = [
  '', ' ', 'null', '[]', '{}', 'true', '-1', '0', '1e308', '-1e308', 'NaN', 'Infinity', '99999999999999999999',
  '-99999999999999999999', '1.5', '0x10', '<script>alert(1)</script>', "' OR 1=1 --", '\u202e\u0000', '😀',
  '../../../etc/passwd', 'x'.repeat(5000),
];
/** JSON values for a body property or a hub argument. */
const jsonValues: unknown[] = [null, true, false, 0, -1, 1.5, 1e308, -1e308, 1e20, '', '%zz', '99999999999999999999', 'x'.repeat(100_000), [], [1, [2, [3]]], {}, { ID: 1e308 }];

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);

/**
 * Numbers in exponent (and hex) form for every id-like argument (issue 39 item 9): `Number()`
 * reads '1e23' as an integer that no 32-bit id column holds, so a parser that forgot the
 * bound sends it to SQL ("bigint out of int64 range", a 500).
 */
const exponentTexts = ['1e23', '1e3', '-1e5', '1E400', '0x10'];
/** The same as JSON number literals (written into the body text as they are). */
const exponentJson = ['1e23', '1e3', '-1e5', '1E400'];
/** An argument that names a stored record: id, ID, uniqueID, summaryId, Ids, userIds... */
const idLike = (name: string) => /ids?$/i.test(name) && !hostLike(name);

/** The valid values, and each enum property at each of its other values (listType=Summary...). */
function enumVariants(props: Record<string, Schema>, base: Record<string, unknown>): Record<string, unknown>[] {
  const out = [base];
  for (const [k, s] of Object.entries(props)) {
    const values = s.enum ?? s.anyOf?.find((a) => a.enum)?.enum ?? [];
    for (const v of values) if (v !== base[k]) out.push({ ...base, [k]: v });
  }
  return out;
}

/** A name of a property that is a host or a target: the server may look it up in DNS. */
const hostLike = (name: string) => /host|target|address/i.test(name) && !/id$/i.test(name);

/** Loopback, or a text resolveTarget refuses before any look-up. */
function safeForHost(value: unknown): boolean {
  if (typeof value !== 'string') return true;
  const text = decodeLeniently(value).trim().replace(/^\[(.*)\]$/, '$1');
  if (isIP(text)) return text === '::1' || text.startsWith('127.');
  return !isDnsName(text);
}

// ---- The appliance under fuzz ------------------------------------------------------------

let hw: Appliance;
let admin: string;
let targetId: string;
let summaryId: number;
let victimId: number;
let forwarded = 0;
/** Index into the appliance's output where the fuzz began. */
let outputFrom = 0;

beforeAll(async () => {
  // Trusting the test's own forwarded addresses keeps the login limiter (per address) from
  // refusing the admin's own sign-ins after the fuzz of the login calls.
  hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'root-pw', HOPWATCH_TRUSTED_PROXIES: '127.0.0.1' } });
  admin = await signIn(hw.url, 'admin', 'root-pw');
  const t = await fetch(`${hw.url}/cmd/newtarget?target=127.0.0.1&traceInterval=30`, { headers: { cookie: admin } });
  expect(t.status).toBe(200);
  targetId = String(((await t.json()) as { ID: string }).ID);
  const s = await fetch(`${hw.url}/cmd/createsummary?name=fuzz`, { headers: { cookie: admin } });
  expect(s.status).toBe(200);
  summaryId = ((await s.json()) as { ID: number }).ID;
  victimId = await createUser(hw, admin, 'victim@example.org', 'fuzz-target-pw-1', ['TargetManagement']);
  outputFrom = hw.output().length;
}, 120_000);

afterAll(async () => {
  await hw?.dispose();
});

/** A value the call should accept for the property, so the hostile one is what is tested. */
function sample(name: string, s: Schema | undefined, route?: string): unknown {
  if (hostLike(name)) return '127.0.0.1';
  if (s?.enum) return s.enum[0];
  if (/summary/i.test(name) || (name === 'ID' && route && /summary|addhost/.test(route))) return summaryId;
  if (/^(id|userId)$/.test(name) && route?.startsWith('/api/user')) return victimId;
  if (/^(ID|id|targetId|webId|uniqueID|SessionWebId|sessionId)$/.test(name)) return targetId;
  if (name === 'Ids' || name === 'ids') return [targetId];
  if (/password/i.test(name)) return 'Not-The-Password-1';
  const type = [s?.type ?? s?.anyOf?.[0]?.type ?? 'string'].flat()[0];
  switch (type) {
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [sample(name, s?.items, route)];
    case 'object':
      return Object.fromEntries((s?.required ?? []).map((k) => [k, sample(k, s?.properties?.[k], route)]));
    default:
      return name === 'name' ? 'Name' : 'x';
  }
}

interface Case {
  label: string;
  path: string;
  query: string;
  body?: string;
  contentType?: string;
  /** Larger than the route's body limit. */
  oversized?: boolean;
}

const enc = (v: unknown) => encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v));

function queryOf(values: Record<string, unknown>, rawPairs: string[] = []): string {
  const pairs = Object.entries(values).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => `${enc(k)}=${enc(x)}`) : [`${enc(k)}=${enc(v)}`]));
  return [...pairs, ...rawPairs].join('&');
}

/** Fills `:param` segments of a route url. */
function pathOf(route: Route, params: Record<string, string>): string {
  return route.url.replace(/:(\w+)/g, (_, k: string) => params[k] ?? String(sample(k, route.params?.properties?.[k], route.url))).replace(/\*$/, 'index.html');
}

function casesFor(route: Route): Case[] {
  const cases: Case[] = [];
  const qProps = route.query?.properties ?? {};
  const required = route.query?.required ?? [];
  const validQuery = Object.fromEntries(required.map((k) => [k, sample(k, qProps[k], route.url)]));
  const paramNames = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const path = pathOf(route, {});
  const bodyProps = route.body?.properties ?? {};
  const validBody = route.body ? (sample('body', route.body, route.url) as Record<string, unknown>) : undefined;
  const withBody = route.method !== 'GET' && route.method !== 'DELETE';
  const bodyOf = () => (withBody ? JSON.stringify(validBody ?? {}) : undefined);

  // Bad names and values in the query, whatever the schema says.
  for (const raw of ['%=1', '%zz=1', '%E0%A4%A=%', 'a%00b=1', '__proto__=1', 'constructor[prototype][x]=1', '%=%&%=%']) {
    cases.push({ label: `query ${raw}`, path, query: queryOf(validQuery, [raw]), body: bodyOf() });
  }
  // Each query property: hostile texts, raw escapes, repeated.
  for (const [name, schema] of Object.entries(qProps)) {
    const host = hostLike(name);
    for (const v of texts) {
      if (host && !safeForHost(v)) continue;
      cases.push({ label: `${name}=${v.slice(0, 30)}`, path, query: queryOf({ ...validQuery, [name]: v }), body: bodyOf() });
    }
    for (const v of rawTexts) {
      if (host && !safeForHost(v)) continue;
      cases.push({ label: `${name}=${v} (raw)`, path, query: [queryOf(omit(validQuery, name)), `${enc(name)}=${v}`].filter(Boolean).join('&'), body: bodyOf() });
    }
    const again = sample(name, schema, route.url);
    cases.push({ label: `${name} twice`, path, query: [queryOf(validQuery), `${enc(name)}=${enc(again)}`].join('&'), body: bodyOf() });
    if (required.includes(name)) cases.push({ label: `${name} missing`, path, query: queryOf(omit(validQuery, name)), body: bodyOf() });
  }
  // Each path parameter.
  for (const name of paramNames) {
    for (const v of texts.filter((t) => t !== '')) {
      cases.push({ label: `:${name}=${v.slice(0, 30)}`, path: pathOf(route, { [name]: enc(v) }), query: queryOf(validQuery), body: bodyOf() });
    }
    for (const v of rawTexts) cases.push({ label: `:${name}=${v} (raw)`, path: pathOf(route, { [name]: v }), query: queryOf(validQuery), body: bodyOf() });
  }
  if (withBody) {
    // Each body property: values of every JSON type, and huge ones.
    for (const name of Object.keys(bodyProps)) {
      for (const v of jsonValues) {
        if (hostLike(name) && !safeForHost(v)) continue;
        cases.push({ label: `body.${name}=${JSON.stringify(v).slice(0, 30)}`, path, query: queryOf(validQuery), body: JSON.stringify({ ...validBody, [name]: v }) });
      }
    }
    // Whole bodies: not JSON, wrong JSON types, prototype keys, deep, oversized, wrong media types.
    const wholes = ['', 'not json', '{', '[]', 'null', '"text"', '1e308', '{"__proto__":{"IsRoot":true}}', '{"constructor":{"prototype":{"x":1}}}', deep(65), deep(10_000), `"${'x'.repeat(route.bodyLimit + 1)}"`];
    for (const body of wholes) {
      cases.push({ label: `body ${body.slice(0, 20)} (${body.length} chars)`, path, query: queryOf(validQuery), body, oversized: body.length > route.bodyLimit });
    }
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', 'application/xml']) {
      cases.push({ label: `content-type ${contentType}`, path, query: queryOf(validQuery), body: bodyOf() ?? '{}', contentType });
    }
  }
  return cases;
}

/** Exponent-form numbers in each id-like query property, path parameter and body property. */
function exponentCasesFor(route: Route): Case[] {
  const cases: Case[] = [];
  const qProps = route.query?.properties ?? {};
  const required = route.query?.required ?? [];
  const validQuery = Object.fromEntries(required.map((k) => [k, sample(k, qProps[k], route.url)]));
  const withBody = route.method !== 'GET' && route.method !== 'DELETE';
  const validBody = route.body ? (sample('body', route.body, route.url) as Record<string, unknown>) : undefined;
  const body = withBody ? JSON.stringify(validBody ?? {}) : undefined;
  for (const [name, schema] of Object.entries(qProps)) {
    if (!idLike(name)) continue;
    for (const variant of enumVariants(qProps, validQuery)) {
      for (const v of exponentTexts) {
        const value = schema.type === 'array' || schema.items ? [v] : v;
        cases.push({ label: `${name}=${v} ${JSON.stringify(omit(variant, name)).slice(0, 60)}`, path: pathOf(route, {}), query: queryOf({ ...variant, [name]: value }), body });
      }
    }
  }
  for (const name of [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1])) {
    if (!idLike(name)) continue;
    for (const v of exponentTexts) cases.push({ label: `:${name}=${v}`, path: pathOf(route, { [name]: enc(v) }), query: queryOf(validQuery), body });
  }
  if (withBody && route.body?.properties) {
    const bodyProps = route.body.properties;
    for (const [name, schema] of Object.entries(bodyProps)) {
      if (!idLike(name)) continue;
      const array = schema.type === 'array';
      for (const variant of enumVariants(bodyProps, validBody ?? {})) {
        for (const v of exponentTexts) {
          cases.push({ label: `body.${name}="${v}"`, path: pathOf(route, {}), query: queryOf(validQuery), body: JSON.stringify({ ...variant, [name]: array ? [v] : v }) });
        }
        for (const v of exponentJson) {
          const text = JSON.stringify({ ...variant, [name]: array ? ['@n'] : '@n' }).replace('"@n"', v);
          cases.push({ label: `body.${name}=${v}`, path: pathOf(route, {}), query: queryOf(validQuery), body: text });
        }
      }
    }
  }
  return cases;
}

function omit(o: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _, ...rest } = o;
  return rest;
}

/** Every host-like value in the request is safe (the last line of the no-traffic rule). */
function assertSafe(c: Case): void {
  for (const pair of c.query.split('&')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && hostLike(decodeLeniently(pair.slice(0, eq)))) expect(safeForHost(pair.slice(eq + 1)), `unsafe host value in ${c.query}`).toBe(true);
  }
  if (c.body?.startsWith('{')) {
    try {
      for (const [k, v] of Object.entries(JSON.parse(c.body) as Record<string, unknown>)) if (hostLike(k)) expect(safeForHost(v)).toBe(true);
    } catch {
      /* not JSON: nothing resolves it */
    }
  }
}

/**
 * The admin's session for the next route: the one in use while it still answers as a fresh
 * sign-in does (some calls sign the admin out, end sessions or start an impersonation), else a
 * new sign-in. A sign-in per route was 149 of them at about 0.1 s of scrypt each.
 */
let session: { cookie: string; current: string } | undefined;
async function adminSession(): Promise<string> {
  const currentUser = async (cookie: string) => {
    const r = await fetch(`${hw.url}/api/Account/GetCurrentUser`, { headers: { cookie } });
    return r.status === 200 ? await r.text() : `${r.status}`;
  };
  if (session && (await currentUser(session.cookie)) === session.current) return session.cookie;
  const cookie = await signIn(hw.url, 'admin', 'root-pw');
  session = { cookie, current: await currentUser(cookie) };
  expect(session.current).toMatch(/"Username":"admin"/);
  return cookie;
}

/** The problems with one answer: 5xx, or a 4xx without an {"Error": text} body. */
async function problemsOf(r: Response): Promise<string | undefined> {
  // A success's body is not looked at: read, not decoded (the agent bundles are 44 MB).
  if (r.status < 400) return void (await r.arrayBuffer());
  const text = await r.text();
  if (r.status >= 500) return `${r.status} ${text.slice(0, 200)}`;
  try {
    const body = JSON.parse(text) as { Error?: unknown };
    if (typeof body.Error !== 'string' || !body.Error) return `${r.status} without an Error text: ${text.slice(0, 200)}`;
  } catch {
    return `${r.status} with a body that is not JSON: ${text.slice(0, 200)}`;
  }
  return undefined;
}

describe('every route', () => {
  it('declares whether a GET changes state (what the cross-site refusal reads)', () => {
    const undeclared = catalog
      .filter((r) => [r.method].flat().includes('GET') && /^\/(api|cmd)\//.test(r.url ?? ''))
      .filter((r) => typeof (r.config as { changesState?: unknown } | undefined)?.changesState !== 'boolean')
      .map((r) => r.url);
    expect(catalog.length).toBeGreaterThan(30);
    expect(undeclared).toEqual([]);
  });

  it('answers hostile requests with 4xx and an Error text, never 5xx, and stays up', async () => {
    const problems: string[] = [];
    let sent = 0;
    for (const route of routes) {
      const cookie = await adminSession();
      for (const c of casesFor(route)) {
        assertSafe(c);
        const url = `${hw.url}${c.path}${c.query ? `?${c.query}` : ''}`;
        const headers: Record<string, string> = { cookie, 'x-forwarded-for': `2001:db8::${(++forwarded).toString(16)}` };
        if (c.body !== undefined) headers['content-type'] = c.contentType ?? 'application/json';
        let r: Response;
        try {
          r = await fetch(url, { method: route.method, headers, body: c.body });
        } catch (err) {
          // The server answers 413 as soon as it sees the length and may close the connection
          // before the client has written the rest: the client then sees a reset, not the
          // answer. That is allowed for a body over the limit (the /readyz check below still
          // proves the server lives); any other request must be answered.
          if (c.oversized) continue;
          problems.push(`${route.method} ${route.url} [${c.label}]: no answer (${(err as Error).message})`);
          break;
        }
        sent++;
        const problem = await problemsOf(r);
        if (problem) problems.push(`${route.method} ${route.url} [${c.label}]: ${problem}`);
      }
      await expectAlive(hw);
    }
    // About 150 routes since the settings, LiveShare, alerts and Insights calls: minutes on a loaded machine.
    console.log(`[fuzz] ${routes.length} routes, ${sent} requests, ${problems.length} problems`);
    expect(problems).toEqual([]);
  }, 1_200_000);

  it('answers ids in exponent form (1e23, 1e3, -1e5, 1E400, 0x10) with 4xx and an Error text, never 5xx', async () => {
    const problems: string[] = [];
    let sent = 0;
    for (const route of routes) {
      const cases = exponentCasesFor(route);
      if (!cases.length) continue;
      const cookie = await adminSession();
      for (const c of cases) {
        assertSafe(c);
        const headers: Record<string, string> = { cookie, 'x-forwarded-for': `2001:db8::${(++forwarded).toString(16)}` };
        if (c.body !== undefined) headers['content-type'] = 'application/json';
        const r = await fetch(`${hw.url}${c.path}${c.query ? `?${c.query}` : ''}`, { method: route.method, headers, body: c.body });
        sent++;
        const problem = await problemsOf(r);
        if (problem) problems.push(`${route.method} ${route.url} [${c.label}]: ${problem}`);
      }
      await expectAlive(hw);
    }
    console.log(`[fuzz] exponent ids: ${sent} requests, ${problems.length} problems`);
    expect(sent).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  }, 600_000);

  it('answers a body over the limit with 413 and an Error text', async () => {
    // Small enough (sign-in's limit is 16 KiB) for the whole body to be written before the answer.
    const r = await fetch(`${hw.url}/api/Account/Login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '2001:db8::ffff' },
      body: JSON.stringify({ Username: 'admin', Password: 'x'.repeat(20_000) }),
    });
    expect(r.status).toBe(413);
    expect(((await r.json()) as { Error: string }).Error).toMatch(/too large/);
  });
});

describe('every /mainHub method', () => {
  let hub: WatchedConnection;
  let cookie: string;

  const connect = async () => {
    hub = await connectHub(hw, cookie, HttpTransportType.WebSockets);
  };
  const argSample = (a: ArgSpec) => (a.name === 'name' ? 'Name' : sample(a.name, a.schema as Schema, '/mainHub'));

  /** Invokes; the hub's "unexpected error" or a closed connection is a problem (then reconnects). */
  async function invokeNoting(name: string, args: unknown[], label: string, problems: string[]): Promise<void> {
    const err = await hub.connection.invoke(name, ...args).then(
      () => undefined,
      (e: Error) => e,
    );
    if (err && /unexpected error/i.test(err.message)) problems.push(`${name} [${label}]: ${err.message}`);
    if (hub.connection.state !== 'Connected') {
      problems.push(`${name} [${label}]: the connection closed (${err?.message})`);
      await connect();
    }
  }

  it('answers hostile arguments with a caller-facing error, never the unexpected one', async () => {
    cookie = await signIn(hw.url, 'admin', 'root-pw');
    await connect();
    const problems: string[] = [];
    let sent = 0;
    for (const [name, args] of hubMethods) {
      const valid = args.map(argSample);
      const calls: [string, unknown[]][] = [
        ['no arguments', []],
        ['one argument too many', [...valid, 'extra']],
      ];
      args.forEach((a, i) => {
        for (const v of jsonValues) calls.push([`${a.name}=${JSON.stringify(v).slice(0, 30)}`, valid.map((x, j) => (j === i ? v : x))]);
      });
      for (const [label, callArgs] of calls) {
        sent++;
        await invokeNoting(name, callArgs, label, problems);
      }
      await expectAlive(hw);
    }
    await hub.connection.stop();
    console.log(`[fuzz] ${hubMethods.length} hub methods, ${sent} invocations, ${problems.length} problems`);
    expect(hubMethods.length).toBeGreaterThan(20);
    expect(problems).toEqual([]);
  }, 600_000);

  it('answers ids in exponent form in every id-like argument with a caller-facing error', async () => {
    cookie = await signIn(hw.url, 'admin', 'root-pw');
    await connect();
    const problems: string[] = [];
    let sent = 0;
    // Strings as the console could send them, and JSON numbers (the client writes 1e23 as 1e+23).
    const values: unknown[] = [...exponentTexts, 1e23, 1e3, -1e5];
    for (const [name, args] of hubMethods) {
      const valid = args.map(argSample);
      // Each enum argument at each of its values too (TraceGraphRows' listType: Summary, Agent...).
      const variants: unknown[][] = [valid];
      args.forEach((a, i) => {
        for (const e of (a.schema as Schema).enum ?? []) if (e !== valid[i]) variants.push(valid.map((x, j) => (j === i ? e : x)));
      });
      for (const variant of variants) {
        for (let i = 0; i < args.length; i++) {
          const s = args[i].schema as Schema;
          // An id argument, an array of ids, or an array of requests naming an ID.
          const place = idLike(args[i].name)
            ? (v: unknown) => (s.type === 'array' ? [v] : v)
            : s.type === 'array' && Object.keys(s.items?.properties ?? {}).some(idLike)
              ? (v: unknown) => [{ ...(sample('item', s.items, '/mainHub') as object), ...Object.fromEntries(Object.keys(s.items!.properties!).filter(idLike).map((k) => [k, v])) }]
              : undefined;
          if (!place) continue;
          for (const v of values) {
            sent++;
            const label = `${args[i].name}=${JSON.stringify(v)} (${JSON.stringify(variant).slice(0, 60)})`;
            await invokeNoting(name, variant.map((x, j) => (j === i ? place(v) : x)), label, problems);
          }
        }
      }
      await expectAlive(hw);
    }
    await hub.connection.stop();
    console.log(`[fuzz] exponent ids: ${sent} hub invocations, ${problems.length} problems`);
    expect(sent).toBeGreaterThan(50);
    expect(problems).toEqual([]);
  }, 600_000);

  it('closes a connection that sends a frame nested too deep, and stays up', async () => {
    await connect();
    const nested = JSON.parse(deep(200)) as unknown;
    const err = await hub.connection.invoke('CreateSummary', nested).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err).toBeInstanceOf(Error);
    const closed = await hub.closed;
    expect(closed?.message ?? '').toMatch(/nested/i);
    await expectAlive(hw);
  });

  it('logged no error while it was fuzzed', () => {
    const errors = hw
      .output()
      .slice(outputFrom)
      .split('\n')
      .filter((line) => /"level":(50|60)/.test(line));
    expect(errors.slice(0, 5)).toEqual([]);
  });
});
