// npm run bench:hub: BENCH_CLIENTS (default 5,000) live consoles, each a real @microsoft/signalr
// client registered for one live trace at a 1 s interval, spread over BENCH_PROCS child
// processes (bench/hub-consoles.mjs) so the clients are not what is measured. Against the
// built appliance, loopback only. It prints:
// - the time from the server's start (readyz) to every console connected and registered;
// - the delay from the round's sample time to the receipt of HostUpdated (p50, p99), and where
//   it goes (bench/hub-split.mjs): the server's ingest to the hub's send, the server's fan-out
//   (first and last socket write, timed by the hub's bench-only probe, HOPWATCH_HUB_FANOUT_PROBE,
//   read through the inspector), the consoles' WebSocket message event and the SignalR client's
//   call of the handler;
// - the server's CPU and its memory per connected console (RSS and V8 heap after a full
//   collection, minus the same of the idle server, over the consoles);
// - a reconnect storm: the server stopped and started again on its data with every console
//   open; the consoles come back by their automatic reconnect with the session cookies they
//   hold (as a browser does: no sign-in), read the user again and register again. Printed:
//   the time to all live again, and every refused attempt by status (401/429 would be
//   refused sign-ins).
// BENCH_USERS (default 100) browsers sign in once each before the start (distinct login
// sessions; the consoles of one browser share its cookie, as tabs do). BENCH_CPU_PROF=dir
// writes the server's CPU profile of the connect phase there (through the inspector).
import { fork } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { startAppliance, cpuSeconds, rssMb as rssOf, hostLoad } from './appliance.mjs';
import { FanoutMarkName, hubDelaySplit } from './hub-split.mjs';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 5000);
const PROCS = Number(process.env.BENCH_PROCS ?? Math.min(5, Math.max(1, Math.ceil(CLIENTS / 1000))));
const USERS = Number(process.env.BENCH_USERS ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const RESTART = process.env.BENCH_RESTART !== '0';
const CPU_PROF = process.env.BENCH_CPU_PROF;
const port = 18000 + Math.floor(Math.random() * 1000);
const inspectPort = port + 1000;
const dataDir = mkdtempSync(join(tmpdir(), 'hopwatch-bench-hub-'));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (text) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${text}`);

/** The server's V8 inspector: a full collection, the heap in use, and the CPU profile. */
async function inspector() {
  const list = await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json();
  const ws = new WebSocket(list[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let n = 0;
  const pending = new Map();
  ws.on('message', (data) => {
    const m = JSON.parse(String(data));
    if (m.id !== undefined) pending.get(m.id)?.(m);
  });
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = ++n;
      pending.set(id, (m) => (m.error ? reject(new Error(m.error.message)) : resolve(m.result)));
      ws.send(JSON.stringify({ id, method, params }));
    });
  return {
    send,
    async heapAfterGcMb() {
      await send('HeapProfiler.collectGarbage');
      await send('HeapProfiler.collectGarbage');
      return (await send('Runtime.getHeapUsage')).usedSize / 1048576;
    },
    /** A JSON-able value of an expression evaluated in the server's global scope. */
    async evaluate(expression) {
      const { result, exceptionDetails } = await send('Runtime.evaluate', { expression, returnByValue: true });
      if (exceptionDetails) throw new Error(`evaluate ${expression}: ${exceptionDetails.text}`);
      return result.value;
    },
    close: () => ws.close(),
  };
}

async function start() {
  const began = Date.now();
  const appliance = await startAppliance({ port, dataDir, env: { HOPWATCH_HUB_FANOUT_PROBE: '1' }, nodeFlags: [`--inspect=127.0.0.1:${inspectPort}`], stdio: ['ignore', 'ignore', 'ignore'] });
  const readyAt = Date.now();
  log(`server ready (/readyz) ${((readyAt - began) / 1000).toFixed(1)} s after its start; ${hostLoad()}`);
  return { appliance, readyAt, v8: await inspector() };
}

/** Signs in as admin once per browser: the session cookies. */
async function signInBrowsers(url, count) {
  const cookies = [];
  for (let i = 0; i < count; i++) {
    const login = await fetch(`${url}/api/Account/Login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Username: 'admin', Password: 'bench', RememberMe: true }),
    });
    if (!login.ok) throw new Error(`login ${i}: ${login.status} ${await login.text()}`);
    cookies.push(login.headers.getSetCookie()[0].split(';')[0]);
  }
  return cookies;
}

const children = [];
let asked = 0;
const ask = (child, body) =>
  new Promise((resolve, reject) => {
    const id = ++asked;
    const on = (m) => {
      if (m.id !== id) return;
      child.off('message', on);
      if (m.error) reject(new Error(m.error));
      else resolve(m);
    };
    child.on('message', on);
    child.send({ id, ...body });
  });
const askAll = (body) => Promise.all(children.map((c) => ask(c, body)));

let server;
try {
  server = await start();
} catch (e) {
  rmSync(dataDir, { recursive: true, force: true }); // a server that did not start leaves nothing behind
  throw e;
}
const { url } = server.appliance;
try {
  log(`bench:hub: ${CLIENTS} consoles in ${PROCS} processes, ${USERS} browsers signed in; ${hostLoad()}`);
  const cookies = await signInBrowsers(url, USERS);
  const created = await fetch(`${url}/cmd/newtarget?target=127.0.0.1&traceInterval=1`, { headers: { cookie: cookies[0] } });
  if (!created.ok) throw new Error(`newtarget: ${created.status} ${await created.text()}`);
  const { ID } = await created.json();

  for (let i = 0; i < PROCS; i++) {
    const child = fork(new URL('./hub-consoles.mjs', import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    await new Promise((r) => child.once('message', r));
    children.push(child);
  }
  await sleep(2000);
  const idle = { rss: rssOf(server.appliance.server.pid), heap: await server.v8.heapAfterGcMb() };
  log(`idle server (a trace at 1 s, ${USERS} sessions): ${idle.rss.toFixed(0)} MB RSS, heap after GC ${idle.heap.toFixed(1)} MB`);

  // The connect phase, from the moment the consoles start (the server has been up a few s).
  if (CPU_PROF) {
    await server.v8.send('Profiler.enable');
    await server.v8.send('Profiler.start');
  }
  const cpu0 = cpuSeconds(server.appliance.server.pid);
  const consolesCpu = () => children.reduce((n, c) => n + cpuSeconds(c.pid), 0);
  const consolesCpu0 = consolesCpu();
  const t0 = Date.now();
  const share = (i) => Math.floor(CLIENTS / PROCS) + (i < CLIENTS % PROCS ? 1 : 0);
  let offset = 0;
  const parts = children.map((c, i) => {
    const count = share(i);
    const mine = Array.from({ length: Math.min(USERS, count) }, (_, k) => cookies[(offset + k) % USERS]);
    offset += count;
    return ask(c, { op: 'connect', url, cookies: mine, count, sessionId: ID });
  });
  await Promise.all(parts);
  const connectS = (Date.now() - t0) / 1000;
  const connectCpu = cpuSeconds(server.appliance.server.pid) - cpu0;
  if (CPU_PROF) {
    const { profile } = await server.v8.send('Profiler.stop');
    mkdirSync(CPU_PROF, { recursive: true });
    const file = join(CPU_PROF, `hub-connect-${Date.now()}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    log(`server CPU profile of the connect phase: ${file}`);
  }
  const sinceStart = (Date.now() - server.readyAt) / 1000;
  log(`${CLIENTS} consoles connected and registered in ${connectS.toFixed(1)} s (${sinceStart.toFixed(1)} s after the server answered /readyz); server CPU ${connectCpu.toFixed(1)} s, the consoles' processes ${(consolesCpu() - consolesCpu0).toFixed(1)} s (2 cores: ${(2 * connectS).toFixed(0)} s to share); ${hostLoad()}`);

  await sleep(2000);
  const rss = rssOf(server.appliance.server.pid);
  const heap = await server.v8.heapAfterGcMb();
  const kb = (mb) => ((mb * 1024) / CLIENTS).toFixed(1);
  log(`server memory with ${CLIENTS} consoles: ${rss.toFixed(0)} MB RSS, heap after GC ${heap.toFixed(1)} MB; per console: RSS ${kb(rss - idle.rss)} KB, heap ${kb(heap - idle.heap)} KB`);

  const cpu1 = cpuSeconds(server.appliance.server.pid);
  const consolesCpu1 = consolesCpu();
  const w0 = Date.now();
  await server.v8.evaluate(`performance.clearMarks(${JSON.stringify(FanoutMarkName)})`);
  // The server's event-loop delay while the events go out (a fan-out's writes hold the loop).
  await server.v8.evaluate(`(globalThis.benchLoopDelay = process.getBuiltinModule('node:perf_hooks').monitorEventLoopDelay({ resolution: 5 })).enable(), 0`);
  await askAll({ op: 'measure', on: true });
  let peak = 0;
  while (Date.now() - w0 < SECONDS * 1000) {
    await sleep(1000);
    peak = Math.max(peak, rssOf(server.appliance.server.pid));
  }
  await askAll({ op: 'measure', on: false });
  const cpuShare = (cpuSeconds(server.appliance.server.pid) - cpu1) / ((Date.now() - w0) / 1000);
  const consolesSeconds = consolesCpu() - consolesCpu1;
  const consolesShare = consolesSeconds / ((Date.now() - w0) / 1000);
  const fanouts = await server.v8.evaluate(`performance.getEntriesByName(${JSON.stringify(FanoutMarkName)}).map((m) => m.detail)`);
  const receipts = (await askAll({ op: 'receipts' })).flatMap((r) => r.receipts);
  const loop = await server.v8.evaluate(`(() => { const h = globalThis.benchLoopDelay; h.disable(); return { p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6 }; })()`);
  const split = hubDelaySplit(fanouts, receipts);
  const ms = (q) => `p50 ${q.p50.toFixed(1)}, p99 ${q.p99.toFixed(1)}, max ${q.max.toFixed(1)} ms`;
  log(`HostUpdated received: ${split.total.n} in ${SECONDS} s (${(split.total.n / SECONDS).toFixed(0)}/s over ${CLIENTS} consoles)`);
  log(`delay from the round's sample time to the handler: p50 ${split.total.p50.toFixed(0)} ms, p99 ${split.total.p99.toFixed(0)} ms, max ${split.total.max.toFixed(0)} ms`);
  log(`  where it goes, over ${split.events} events (${split.unmatched} receipts without a server record):`);
  log(`  server: sample time -> hub asked to send (ingest, commit): ${ms(split.ingest)}`);
  log(`  server: hub asked -> first socket write returned: ${ms(split.firstWrite)}; -> last of ${CLIENTS}: ${ms(split.lastWrite)}`);
  log(`  consoles: hub asked -> WebSocket message event: ${ms(split.toMessage)} (after the server's last write: ${ms(split.afterLastWrite)})`);
  log(`  consoles: WebSocket message event -> SignalR handler called: ${ms(split.parse)}`);
  log(`server event-loop delay meanwhile: ${ms(loop)}`);
  log(`server CPU ${(cpuShare * 100).toFixed(1)}% of one core; ${rssOf(server.appliance.server.pid).toFixed(0)} MB RSS (peak ${peak.toFixed(0)} MB); ${hostLoad()}`);
  // The consoles share the server's cores: what they spend receiving is what the writes wait for.
  log(`the consoles' processes meanwhile: ${(consolesShare * 100).toFixed(1)}% of one core, ${((consolesSeconds * 1e6) / Math.max(1, split.total.n)).toFixed(0)} us of CPU per HostUpdated received`);

  if (RESTART) {
    await askAll({ op: 'restarting' });
    const s0 = Date.now();
    server.v8.close();
    await server.appliance.stop();
    const stoppedS = (Date.now() - s0) / 1000;
    server = await start();
    const upS = (server.readyAt - s0) / 1000;
    if (CPU_PROF) {
      await server.v8.send('Profiler.enable');
      await server.v8.send('Profiler.start');
    }
    log(`reconnect storm: server stopped in ${stoppedS.toFixed(1)} s, started again and ready ${upS.toFixed(1)} s after the stop began`);
    let status;
    for (;;) {
      status = await askAll({ op: 'status' });
      const live = status.reduce((n, s) => n + s.live, 0);
      if (live === CLIENTS || Date.now() - server.readyAt > 120_000) break;
      await sleep(250);
    }
    if (CPU_PROF) {
      const { profile } = await server.v8.send('Profiler.stop');
      const file = join(CPU_PROF, `hub-storm-${Date.now()}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      log(`server CPU profile of the reconnect storm: ${file}`);
    }
    const live = status.reduce((n, s) => n + s.live, 0);
    const reconnected = status.reduce((n, s) => n + s.reconnected, 0);
    const lastLive = Math.max(...status.map((s) => s.lastLiveAt));
    const failures = {};
    for (const s of status) for (const [k, v] of Object.entries(s.failures)) failures[k] = (failures[k] ?? 0) + v;
    await sleep(3000);
    const heard = (await askAll({ op: 'status' })).reduce((n, s) => n + s.heard, 0);
    log(
      `reconnect storm: ${reconnected} of ${CLIENTS} consoles reconnected, ${live} live again (reconnected, user read, registered) ${((lastLive - s0) / 1000).toFixed(1)} s after the stop began, ${((lastLive - server.readyAt) / 1000).toFixed(1)} s after the new server's /readyz; ${heard} heard HostUpdated since`,
    );
    log(`reconnect storm: failed attempts by cause: ${JSON.stringify(failures)} (401/429 would be refused sign-ins); ${hostLoad()}`);
  }
} finally {
  await Promise.allSettled(children.map((c) => ask(c, { op: 'stop' })));
  server.v8?.close();
  await server.appliance.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
