// npm run bench:liveshare: 100 LiveShare visitors on one link (each its own /mainHub
// connection, signed in by the liveshareid cookie, registered as the viewer registers: the
// summary and each of its targets) while the linked summary's 10 loopback targets trace at
// 1 s. Prints the delay from a round's sample time to the receipt of HostUpdated and
// SummaryHostUpdated (p50, p99) and the server's CPU share, then the same for 100 signed-in
// user connections (the peer: what visitors cost over users). Raw sockets as root, the
// simulated engine otherwise. Loopback only.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HubConnectionBuilder, HttpTransportType, LogLevel } from '@microsoft/signalr';

const VISITORS = Number(process.env.BENCH_VISITORS ?? 100);
const TARGETS = Number(process.env.BENCH_TARGETS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const port = 18000 + Math.floor(Math.random() * 1000);
const url = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(join(tmpdir(), 'hopwatch-bench-liveshare-'));
const engine = process.getuid?.() === 0 ? {} : { HOPWATCH_ENGINE: 'simulated' };
const { serverNodeFlags, serverEnv } = await import('./server-flags.mjs');
const server = spawn(process.execPath, [...serverNodeFlags, 'dist/server/main.js'], {
  env: { ...serverEnv, HOPWATCH_PORT: String(port), HOPWATCH_HOST: '127.0.0.1', HOPWATCH_DATA_DIR: dataDir, HOPWATCH_ROOT_PASSWORD: 'bench-liveshare', HOPWATCH_LOG_LEVEL: 'warn', ...engine },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const clients = [];

async function json(path, cookie, init = {}) {
  const r = await fetch(`${url}${path}`, { ...init, headers: { cookie, 'content-type': 'application/json', ...(init.headers ?? {}) } });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return r.json();
}

const cpu = () => {
  const f = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100; // utime + stime in seconds (USER_HZ 100)
};
const quantile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/** Connects `count` clients with `cookie`, registers each for the summary and its targets, measures for SECONDS. */
async function phase(name, cookie, summaryId, targetIds) {
  const host = [];
  const summary = [];
  let measuring = false;
  const mine = [];
  const t0 = Date.now();
  for (let i = 0; i < VISITORS; i++) {
    const c = new HubConnectionBuilder()
      .withUrl(`${url}/mainHub`, { transport: HttpTransportType.WebSockets, headers: { cookie } })
      .configureLogging(LogLevel.None)
      .build();
    c.on('HostUpdated', (_id, time) => measuring && host.push(Date.now() - Date.parse(time)));
    c.on('SummaryHostUpdated', (_s, _id, time) => measuring && summary.push(Date.now() - Date.parse(time)));
    await c.start();
    await c.invoke('RegisterForChangesToSummary', summaryId);
    for (const id of targetIds) await c.invoke('RegisterForNewSamples', id);
    mine.push(c);
    clients.push(c);
  }
  const connectS = (Date.now() - t0) / 1000;
  await sleep(2000);
  const cpu0 = cpu();
  const w0 = Date.now();
  measuring = true;
  await sleep(SECONDS * 1000);
  measuring = false;
  const cpuShare = (cpu() - cpu0) / ((Date.now() - w0) / 1000);
  await Promise.allSettled(mine.map((c) => c.stop()));
  host.sort((a, b) => a - b);
  summary.sort((a, b) => a - b);
  const line = (label, d) =>
    d.length ? `${label}: ${d.length} received, p50 ${quantile(d, 0.5)} ms, p99 ${quantile(d, 0.99)} ms, max ${d[d.length - 1]} ms` : `${label}: none received`;
  console.log(`-- ${name}: ${VISITORS} connections registered in ${connectS.toFixed(1)} s`);
  console.log(line('HostUpdated delay', host));
  console.log(line('SummaryHostUpdated delay', summary));
  console.log(`server CPU: ${(cpuShare * 100).toFixed(1)}% of one core over ${SECONDS} s`);
  return { p99: quantile(host, 0.99), cpuShare };
}

try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {}
    if (i > 300) throw new Error('server did not start');
    await sleep(100);
  }
  const login = await fetch(`${url}/api/Account/Login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Username: 'admin', Password: 'bench-liveshare', RememberMe: false }),
  });
  const admin = login.headers.getSetCookie()[0].split(';')[0];
  const { UniqueID: summaryId } = await json('/cmd/createsummary?name=bench', admin);
  const targetIds = [];
  for (let i = 1; i <= TARGETS; i++) {
    const { ID } = await json(`/cmd/newtarget?target=127.0.0.${i}&traceInterval=1`, admin);
    targetIds.push(ID);
    await json(`/cmd/addhost?host=${ID}&ID=${summaryId}`, admin);
  }
  const link = await json('/api/liveshare', admin, { method: 'POST', body: JSON.stringify({ SummaryID: `SUM-${summaryId}`, Description: 'bench' }) });
  const visitor = `liveshareid=${encodeURIComponent(`${link.ShareId}/${link.SecurePW}`)}`;
  console.log(`bench:liveshare ${new Date().toISOString()}: ${TARGETS} targets at 1 s (${engine.HOPWATCH_ENGINE ?? 'raw sockets'}), ${os()}`);
  await sleep(3000);
  const v = await phase('LiveShare visitors', visitor, summaryId, targetIds);
  const u = await phase('signed-in user connections (peer)', admin, summaryId, targetIds);
  console.log(`visitors / users: HostUpdated p99 ${(v.p99 / u.p99).toFixed(2)}x, CPU ${(v.cpuShare / u.cpuShare).toFixed(2)}x`);
  console.log('(delays include the round itself and the ingest commit before the event is sent; the machine may be shared)');
} finally {
  await Promise.allSettled(clients.map((c) => c.stop()));
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}

function os() {
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  return `load average ${load}`;
}
