// npm run bench:hub: 500 @microsoft/signalr clients registered for one live trace at a 1 s
// interval against the built appliance: delay from the round's sample time to the receipt
// of HostUpdated (p50, p99), and the server's CPU and memory meanwhile. Loopback only.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HubConnectionBuilder, HttpTransportType, LogLevel } from '@microsoft/signalr';
import { startAppliance, signIn, cpuSeconds, rssMb as rssOf } from './appliance.mjs';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const port = 18000 + Math.floor(Math.random() * 1000);
const dataDir = mkdtempSync(join(tmpdir(), 'hopwatch-bench-hub-'));
const appliance = await startAppliance({ port, dataDir });
const { url, server } = appliance;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const clients = [];
try {
  const cookie = await signIn(url);
  const started = await fetch(`${url}/cmd/newtarget?target=127.0.0.1&traceInterval=1`, { headers: { cookie } });
  if (!started.ok) throw new Error(`newtarget: ${started.status} ${await started.text()}`);
  const { ID } = await started.json();

  const delays = [];
  let measuring = false;
  const t0 = Date.now();
  for (let i = 0; i < CLIENTS; i++) {
    const c = new HubConnectionBuilder()
      .withUrl(`${url}/mainHub`, { transport: HttpTransportType.WebSockets, headers: { cookie } })
      .configureLogging(LogLevel.None)
      .build();
    c.on('HostUpdated', (_id, time) => {
      if (measuring) delays.push(Date.now() - Date.parse(time));
    });
    await c.start();
    await c.invoke('RegisterForNewSamples', ID);
    clients.push(c);
  }
  console.log(`bench:hub ${new Date().toISOString()}: ${CLIENTS} clients connected and registered in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const cpu = () => cpuSeconds(server.pid);
  const rssMb = () => rssOf(server.pid);
  const cpu0 = cpu();
  const w0 = Date.now();
  measuring = true;
  let peak = 0;
  while (Date.now() - w0 < SECONDS * 1000) {
    await sleep(1000);
    peak = Math.max(peak, rssMb());
  }
  measuring = false;
  const cpuShare = (cpu() - cpu0) / ((Date.now() - w0) / 1000);
  delays.sort((a, b) => a - b);
  const q = (p) => delays[Math.min(delays.length - 1, Math.floor(p * delays.length))];
  console.log(`events received: ${delays.length} in ${SECONDS} s (${(delays.length / SECONDS).toFixed(0)}/s over ${CLIENTS} clients)`);
  console.log(`delay from the round's sample time to receipt: p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${delays[delays.length - 1]} ms`);
  console.log(`server CPU: ${(cpuShare * 100).toFixed(1)}% of one core; server memory: ${rssMb().toFixed(0)} MB RSS (peak ${peak.toFixed(0)} MB)`);
  console.log('(the delay includes the round itself and the ingest commit before the event is sent)');
} finally {
  await Promise.allSettled(clients.map((c) => c.stop()));
  await appliance.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
