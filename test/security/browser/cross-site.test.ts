// Cross-site request forgery and framing, attacked from a real browser (Debian Chromium
// driven by playwright-core) against the built appliance. The victim signs in through the
// login form; a target to 127.0.0.1 and a summary exist. Attacker pages, served by two small
// node:http servers, then act in the victim's browser (same profile, so the victim's
// SameSite=Lax session cookie is there), each in a fresh tab:
//   - from 127.0.0.2 (another site): links and script navigations to the state-changing
//     GETs (/cmd/close, stoptrace, newtarget, createsummary, renamesummary, closesummary,
//     updateTraceInterval), an auto-submitted form GET to /cmd/close, and last (so a failure
//     does not sign the victim out for the others) sign-out by a form POST and by a script
//     navigation to /api/Account/Logout;
//   - from 127.0.0.1 on another port (same site, other origin): a script navigation to
//     /cmd/resettrace, a credentialed no-cors fetch to /cmd/stoptrace, a WebSocket to
//     /mainHub and a credentialed no-cors POST to /mainHub/negotiate;
//   - from 127.0.0.2: an <iframe> of the console (clickjacking).
// It proves that each attack reached the appliance as the browser really sends it (Chromium's
// own record of the headers: Sec-Fetch-Site, Origin, and the victim's cookie where the browser
// attaches it) and was answered 403 with an Error text (read from the browser's response, or
// for the no-cors calls from the wire and the server's own request log), that nothing changed
// (still signed in, target still tracing at its interval, summary unchanged, nothing
// created), that the console is not rendered inside another site's frame, and that the
// console itself still works: it renders signed in and its same-origin state changes pass.
// Without installCrossSiteRefusal / the hub's refuseRequest every attack test fails; without
// the security headers the framing test fails.
// The server's log goes to test-results/security-cross-site-server.log.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import type { BrowserContext, ConsoleMessage, Page, Response, WebSocket as BrowserSocket } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../../support/appliance.js';
import { engineEnv } from '../../support/trace-network.js';
import { openBrowser, signInWithForm, type Browser } from '../../support/browser.js';

const results = resolve(import.meta.dirname, '../../../test-results');
const password = 'Cross-site-victim-pw-1';
const SessionCookie = 'hopwatch_session';
const summaryName = 'Core routers';
/** The words of the refusal text (server/http/cross-site.ts). */
const refusedText = /refused because another web site sent it/;

interface Attacker {
  server: Server;
  origin: string;
  /** Serves the page at a fresh path of this origin and answers its URL. */
  serve: (body: string) => string;
}

/** A tiny web server on a loopback address serving the attacker pages the test writes. */
async function startAttacker(host: string): Promise<Attacker> {
  const pages = new Map<string, string>();
  const server = createServer((req, res) => {
    const page = pages.get(new URL(req.url ?? '/', 'http://attacker').pathname);
    if (page === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page);
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, host, () => ok());
  });
  const origin = `http://${host}:${(server.address() as { port: number }).port}`;
  let n = 0;
  return {
    server,
    origin,
    serve: (body) => {
      const path = `/attack-${++n}`;
      pages.set(path, `<!doctype html><html><head><meta charset="utf-8"><title>Win a prize</title></head><body>${body}</body></html>`);
      return origin + path;
    },
  };
}

const closeServer = (s: Server) =>
  new Promise<void>((ok) => {
    s.closeAllConnections();
    s.close(() => ok());
  });

/** Checks until `check` holds or the time is up; answers whether it held. */
async function eventually(check: () => Promise<boolean>, ms = 15_000): Promise<boolean> {
  for (const deadline = Date.now() + ms; ; await new Promise((ok) => setTimeout(ok, 250))) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
  }
}

const lowerKeys = (h: Record<string, unknown>) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), String(v)]));

interface WireRequest {
  url: string;
  headers: Record<string, string>;
  status: number;
}

// The victim's target traces 127.0.0.1: raw sockets as root, the simulated engine otherwise.
describe('cross-site attacks from a browser are refused', () => {
  let app: Appliance;
  let browser: Browser;
  let context: BrowserContext;
  /** The victim's own tab, on the console. */
  let consoleTab: Page;
  /** A fresh tab for each attack (same profile, so the same cookies). */
  let tab: Page;
  /** Another site: Chromium treats a different IP address as a different site. */
  let crossSite: Attacker;
  /** Same site (127.0.0.1), another origin (port). */
  let sameSite: Attacker;
  let victimSession = '';
  /** A second session of the same user, signed in through the API: reads the state even if an attack signed the victim out. */
  let observer = '';
  let targetId = 0;
  let summaryId = '';

  /** The session cookie the browser holds now for the appliance ('' when none). */
  const browserSession = async () => (await context.cookies(app.url)).find((c) => c.name === SessionCookie)?.value ?? '';
  /** A non-browser call (no Origin, no Sec-Fetch-Site) with the victim's session. */
  const asVictim = async (path: string) => {
    const r = await fetch(`${app.url}${path}`, { headers: { cookie: `${SessionCookie}=${victimSession}` } });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : null };
  };
  const asObserver = async (path: string) => {
    const r = await fetch(`${app.url}${path}`, { headers: { cookie: observer } });
    return { status: r.status, body: await r.json() };
  };
  const targetDetails = async () => {
    const r = await asObserver(`/api/data/TraceGraphRows?listType=Target&uniqueID=${targetId}`);
    expect(r.status).toBe(200);
    return r.body as { Rows: { TotalCount: number }[]; Details: { IsRunning: boolean; TraceInterval: number; TargetIPAddress: string } };
  };
  const summaries = async () => {
    const r = await asObserver('/cmd/getsummaries');
    expect(r.status).toBe(200);
    return r.body as { UniqueID: string; Name: string; IsAllTargets: boolean; TargetCount: number }[];
  };
  const carriedSession = (sent: Record<string, string>) => (sent.cookie ?? '').includes(`${SessionCookie}=${victimSession}`);

  /**
   * What went over the wire for each request of the attack tab, from Chromium's DevTools
   * protocol: the headers it really sent (cookie included) and the status it got, also for
   * requests whose answer the page may not read (no-cors, blocked by CORP).
   */
  let wire = new Map<string, Partial<WireRequest>>();
  async function recordWire(page: Page): Promise<void> {
    wire = new Map();
    const entry = (id: string) => wire.get(id) ?? wire.set(id, {}).get(id)!;
    const cdp = await context.newCDPSession(page);
    cdp.on('Network.requestWillBeSent', (e) => void (entry(e.requestId).url = e.request.url));
    cdp.on('Network.requestWillBeSentExtraInfo', (e) => void (entry(e.requestId).headers = lowerKeys(e.headers)));
    cdp.on('Network.responseReceivedExtraInfo', (e) => void (entry(e.requestId).status = e.statusCode));
    await cdp.send('Network.enable');
  }
  /** Waits for the tab's request to a URL starting with `prefix` to be sent and answered. */
  async function onTheWire(prefix: string): Promise<WireRequest> {
    const find = () => [...wire.values()].find((r) => r.url?.startsWith(prefix) && r.headers && r.status !== undefined);
    await expect.poll(() => find() !== undefined, { timeout: 15_000 }).toBe(true);
    return find() as WireRequest;
  }

  /**
   * The statuses the appliance answered, from its own request log (one line per request at
   * debug level, see server/http/request-log.ts), to requests with this method whose URL
   * starts with `path`: for calls whose answer the attacker's browser hides (no-cors).
   */
  function serverAnswers(method: string, path: string): number[] {
    const statuses: number[] = [];
    for (const line of app.output().split('\n')) {
      if (!line.startsWith('{')) continue;
      let e: { msg?: string; req?: { method: string; url: string }; res?: { statusCode: number } };
      try {
        e = JSON.parse(line);
      } catch {
        continue;
      }
      if ((e.msg === 'request completed' || e.msg === 'slow request') && e.req && e.res && e.req.method === method && e.req.url.startsWith(path)) {
        statuses.push(e.res.statusCode);
      }
    }
    return statuses;
  }
  /** Waits until the appliance has logged one more answer to such a request than `before` and returns it. */
  async function nextServerAnswer(method: string, path: string, before: number): Promise<number> {
    await expect.poll(() => serverAnswers(method, path).length, { timeout: 15_000 }).toBeGreaterThan(before);
    return serverAnswers(method, path)[before];
  }

  /** Opens the attacker page in the tab, lets it act, and answers the browser's response from the appliance at `path`. */
  async function attack(attacker: Attacker, body: string, path: string, act?: (p: Page) => Promise<void>): Promise<Response> {
    const answered = tab.waitForResponse((r) => r.url().startsWith(`${app.url}/`) && new URL(r.url()).pathname === path, { timeout: 15_000 });
    // Only until the page is there: it leaves at once (and a 204 answer keeps it from loading).
    await tab.goto(attacker.serve(body), { waitUntil: 'commit' });
    await act?.(tab);
    return answered;
  }

  /** The navigation reached the appliance with this Sec-Fetch-Site and was refused with 403 and an Error text; answers the headers sent. */
  async function expectRefused(response: Response, site: 'cross-site' | 'same-site', label: string) {
    const sent = await response.request().allHeaders();
    expect(sent['sec-fetch-site'], label).toBe(site);
    expect(response.status(), label).toBe(403);
    expect((await response.json()).Error, label).toMatch(refusedText);
    // What the victim sees: the refusal, not the console.
    await tab.waitForURL((u) => u.href.startsWith(`${app.url}/`), { timeout: 15_000 });
    expect(await tab.locator('body').innerText(), label).toMatch(refusedText);
    return sent;
  }

  const link = (href: string) => `<a id="go" href="${href}">Claim your prize</a>`;
  const script = (href: string) => `<script>location = ${JSON.stringify(href)};</script>`;
  const autoSubmit = (method: 'GET' | 'POST', action: string, fields: Record<string, string | number> = {}) =>
    `<form method="${method}" action="${action}">` +
    Object.entries(fields)
      .map(([k, v]) => `<input type="hidden" name="${k}" value="${v}">`)
      .join('') +
    '</form><script>document.forms[0].submit();</script>';

  beforeAll(async () => {
    mkdirSync(results, { recursive: true });
    // Debug level: the request lines are what serverAnswers reads.
    app = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: password, HOPWATCH_LOG_LEVEL: 'debug', ...engineEnv() } });
    crossSite = await startAttacker('127.0.0.2');
    sameSite = await startAttacker('127.0.0.1');
    browser = await openBrowser({ width: 1280, height: 800 });
    context = browser.context;
    consoleTab = browser.page;
    await signInWithForm(consoleTab, app.url, 'admin', password);
    const cookie = (await context.cookies(app.url)).find((c) => c.name === SessionCookie);
    expect(cookie?.sameSite, 'the browser holds the Lax session cookie').toBe('Lax');
    victimSession = cookie!.value;
    observer = await signIn(app.url, 'admin', password);

    // The victim's own work, made by a non-browser client with the browser's cookie.
    const started = await asVictim('/cmd/newtarget?target=127.0.0.1&traceInterval=1');
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    targetId = started.body.ID;
    const created = await asVictim(`/cmd/createsummary?name=${encodeURIComponent(summaryName)}`);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    summaryId = created.body.UniqueID;
    // The trace is running and has samples before the attacks.
    if (!(await eventually(async () => ((await targetDetails()).Rows[0]?.TotalCount ?? 0) > 0, 30_000))) {
      throw new Error(`no samples for the target:\n${app.output()}`);
    }
  }, 120_000);

  beforeEach(async () => {
    tab = await context.newPage();
    await recordWire(tab);
  });

  afterEach(async () => {
    await tab?.close();
  });

  afterAll(async () => {
    if (app) writeFileSync(join(results, 'security-cross-site-server.log'), app.output());
    await browser?.close();
    if (crossSite) await closeServer(crossSite.server);
    if (sameSite) await closeServer(sameSite.server);
    await app?.dispose();
  });

  // Top-level GETs from another site carry the Lax cookie: without the refusal each of these
  // would act as the victim.
  const navigations: { path: string; query: () => string; how: 'link' | 'script' }[] = [
    { path: '/cmd/close', query: () => `ID=${targetId}`, how: 'link' },
    { path: '/cmd/stoptrace', query: () => `ID=${targetId}`, how: 'script' },
    { path: '/cmd/newtarget', query: () => 'target=127.0.0.9', how: 'link' },
    { path: '/cmd/createsummary', query: () => 'name=attacker-made', how: 'script' },
    { path: '/cmd/renamesummary', query: () => `ID=${summaryId}&name=pwned`, how: 'link' },
    { path: '/cmd/closesummary', query: () => `ID=${summaryId}`, how: 'script' },
    { path: '/cmd/updateTraceInterval', query: () => `webId=${targetId}&traceIntervalInMS=60000`, how: 'link' },
  ];
  for (const a of navigations) {
    it(`refuses a ${a.how === 'link' ? 'link' : 'script navigation'} from another site to ${a.path}`, async () => {
      const href = `${app.url}${a.path}?${a.query()}`;
      const response = await attack(crossSite, a.how === 'link' ? link(href) : script(href), a.path, a.how === 'link' ? (p) => p.click('#go') : undefined);
      const sent = await expectRefused(response, 'cross-site', `${a.how} to ${a.path}`);
      expect(carriedSession(sent), `${a.path} carried the victim's cookie`).toBe(true);
    }, 30_000);
  }

  it('refuses an auto-submitted form GET from another site to /cmd/close', async () => {
    const response = await attack(crossSite, autoSubmit('GET', `${app.url}/cmd/close`, { ID: targetId }), '/cmd/close');
    const sent = await expectRefused(response, 'cross-site', 'form GET to /cmd/close');
    expect(carriedSession(sent), 'the form GET carried the cookie').toBe(true);
  }, 30_000);

  it('refuses a same-site navigation from another origin (127.0.0.1 on another port) to /cmd/resettrace', async () => {
    const response = await attack(sameSite, script(`${app.url}/cmd/resettrace?ID=${targetId}`), '/cmd/resettrace');
    const sent = await expectRefused(response, 'same-site', 'navigation to /cmd/resettrace');
    expect(carriedSession(sent)).toBe(true);
  }, 30_000);

  it('refuses a credentialed no-cors fetch from the same site to /cmd/stoptrace', async () => {
    await tab.goto(sameSite.serve('<p>Loading...</p>'));
    const before = serverAnswers('GET', '/cmd/stoptrace').length;
    // Opaque to the page either way (and the answer's Cross-Origin-Resource-Policy makes the
    // fetch fail in the page): the status is read from the wire and from the server's log.
    await tab.evaluate(
      (u) => fetch(u, { credentials: 'include', mode: 'no-cors' }).then(() => 'answered', () => 'failed'),
      `${app.url}/cmd/stoptrace?ID=${targetId}`,
    );
    const sent = await onTheWire(`${app.url}/cmd/stoptrace`);
    expect(sent.headers['sec-fetch-site']).toBe('same-site');
    expect(carriedSession(sent.headers), 'a same-site fetch carries the Lax cookie').toBe(true);
    expect(sent.status).toBe(403);
    expect(await nextServerAnswer('GET', '/cmd/stoptrace', before)).toBe(403);
  }, 30_000);

  it('refuses a WebSocket to /mainHub opened by a page of the same site', async () => {
    await tab.goto(sameSite.serve('<p>Chat</p>'));
    const hubUrl = `ws://127.0.0.1:${app.port}/mainHub`;
    // Chromium reports a refused handshake on the socket and on the console.
    const errors: string[] = [];
    tab.on('websocket', (ws: BrowserSocket) => ws.url() === hubUrl && ws.on('socketerror', (e) => errors.push(e)));
    tab.on('console', (m: ConsoleMessage) => m.text().includes(hubUrl) && errors.push(m.text()));
    const outcome = await tab.evaluate(
      (u) =>
        new Promise<string>((ok) => {
          const ws = new WebSocket(u);
          ws.onopen = () => {
            ok('open');
            ws.close();
          };
          ws.onclose = (e) => ok(`closed ${e.code}`);
        }),
      hubUrl,
    );
    // 1006: the handshake was answered without an upgrade.
    expect(outcome).toBe('closed 1006');
    await expect.poll(() => errors.join('\n'), { timeout: 15_000 }).toMatch(/Unexpected response code: 403/);
  }, 30_000);

  it('refuses a credentialed no-cors POST to /mainHub/negotiate from the same site', async () => {
    await tab.goto(sameSite.serve('<p>Chat</p>'));
    const before = serverAnswers('POST', '/mainHub/negotiate').length;
    await tab.evaluate(
      (u) => fetch(u, { method: 'POST', credentials: 'include', mode: 'no-cors', body: '' }).then(() => 'answered', () => 'failed'),
      `${app.url}/mainHub/negotiate?negotiateVersion=1`,
    );
    const sent = await onTheWire(`${app.url}/mainHub/negotiate`);
    expect(sent.headers.origin).toBe(sameSite.origin);
    expect(carriedSession(sent.headers)).toBe(true);
    // A negotiate that went through would answer 200 with a connection token.
    expect(sent.status).toBe(403);
    expect(await nextServerAnswer('POST', '/mainHub/negotiate', before)).toBe(403);
  }, 30_000);

  // Kept although this POST could not sign the victim out even without the refusal: Chromium
  // keeps the Lax cookie off a cross-site POST, and the appliance has no parser for form
  // bodies (it would answer 415). It proves the refusal comes first and answers without a
  // Set-Cookie, so such a page cannot clear the victim's cookie in the browser either.
  it('refuses sign-out by an auto-submitted form POST from another site, and sets no cookie', async () => {
    const response = await attack(crossSite, autoSubmit('POST', `${app.url}/api/Account/Logout`), '/api/Account/Logout');
    expect(response.request().method()).toBe('POST');
    const sent = await expectRefused(response, 'cross-site', 'form POST to /api/Account/Logout');
    expect(sent.origin).toBe(crossSite.origin);
    expect(carriedSession(sent), 'a cross-site POST carries no Lax cookie').toBe(false);
    expect(response.headers()['set-cookie'], 'the answer sets no cookie').toBeUndefined();
    expect(await browserSession(), 'the browser still holds the session').toBe(victimSession);
  }, 30_000);

  it('refuses sign-out by a script navigation from another site to GET /api/Account/Logout', async () => {
    const response = await attack(crossSite, script(`${app.url}/api/Account/Logout`), '/api/Account/Logout');
    const sent = await expectRefused(response, 'cross-site', 'navigation to /api/Account/Logout');
    expect(carriedSession(sent), 'the navigation carried the cookie').toBe(true);
  }, 30_000);

  it('leaves the victim signed in and their target and summary as they were', async () => {
    // Soft: when the defence is missing, every fact the attacks changed is reported.
    // Still signed in, in the browser and on the server.
    expect.soft(await browserSession(), 'the browser still holds the session').toBe(victimSession);
    expect.soft((await asVictim('/api/Account/GetCurrentUser')).status, 'still signed in').toBe(200);

    // The target is open, tracing and still at its interval; it keeps collecting samples.
    const details = await targetDetails();
    expect.soft(details.Details.IsRunning, 'the target is running').toBe(true);
    expect.soft(details.Details.TraceInterval, 'the trace interval (s)').toBe(1);
    expect.soft(details.Details.TargetIPAddress).toBe('127.0.0.1');
    const count = details.Rows[0].TotalCount;
    expect.soft(await eventually(async () => (await targetDetails()).Rows[0].TotalCount > count), 'samples keep coming').toBe(true);

    // The summary keeps its name; nothing the attacker named exists; the only open target is
    // the victim's (no 127.0.0.9, no reset's replacement).
    const list = await summaries();
    expect.soft(list.find((s) => s.UniqueID === summaryId)?.Name, 'the summary and its name').toBe(summaryName);
    expect.soft(list.map((s) => s.Name)).not.toContain('pwned');
    expect.soft(list.map((s) => s.Name)).not.toContain('attacker-made');
    expect.soft(list.find((s) => s.IsAllTargets)?.TargetCount, 'open targets').toBe(1);
  }, 60_000);

  it("does not render the console inside another site's frame", async () => {
    const answered = tab.waitForResponse((r) => r.url() === `${app.url}/`, { timeout: 15_000 });
    await tab.goto(crossSite.serve(`<h1>Click the button below</h1><iframe src="${app.url}/" width="800" height="600"></iframe>`));
    // The appliance sent its page (the frame really asked for the console) ...
    expect((await answered).status()).toBe(200);
    // ... and Chromium did not show it: the frame holds its error page, not the console.
    await expect.poll(() => tab.frames().length).toBe(2);
    const frame = tab.frames().find((f) => f !== tab.mainFrame())!;
    await expect.poll(() => frame.url(), { timeout: 15_000 }).not.toBe('about:blank');
    expect(frame.url(), 'the frame holds an error page').not.toContain(app.url);
    const consoleRendered = await frame.evaluate(() => (document.querySelector('#root')?.childElementCount ?? 0) > 0).catch(() => false);
    expect(consoleRendered).toBe(false);
  }, 30_000);

  it('still works for the user in its own tab: renders signed in and accepts its own state changes', async () => {
    await consoleTab.bringToFront();
    await consoleTab.goto(`${app.url}/`);
    await consoleTab.getByText('admin', { exact: true }).first().waitFor({ state: 'visible', timeout: 15_000 });
    await consoleTab.getByRole('link', { name: 'Sessions' }).first().waitFor({ state: 'visible', timeout: 15_000 });
    expect(new URL(consoleTab.url()).pathname).toBe('/');

    // A same-origin state change from the console's origin (Sec-Fetch-Site: same-origin).
    const status = await consoleTab.evaluate(() => fetch('/cmd/createsummary?name=mine').then((r) => r.status));
    expect(status).toBe(200);
    expect((await summaries()).map((s) => s.Name)).toContain('mine');
    // And a POST with the console's own Origin: signing out works.
    const out = await consoleTab.evaluate(() => fetch('/api/Account/Logout', { method: 'POST' }).then((r) => r.status));
    expect(out).toBe(204);
    expect((await asVictim('/api/Account/GetCurrentUser')).status).toBe(401);
  }, 60_000);
});
