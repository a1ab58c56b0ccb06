// npm run bench:agents (issue 17): AGENTS remote agents over loopback, each its own agent link
// connection through the real agent program code (dist/agent/program.js; probes on the
// simulated engine, 30 hops), TARGETS traces each at 1 s, against the built appliance:
//   - server CPU share and memory while they stream;
//   - delay from a round's end (sample time + the round's longest rtt) on the agent to the
//     receipt of HostUpdated in a console client registered for some of the targets (p50, p99);
//   - backfill: one agent reconnecting with a spool of SPOOL_MINUTES of 10 targets x 30 hops at
//     1 s (60 min: 36,000 rounds, 1.08 M hop samples): time from connect to the last
//     acknowledgement (every batch committed).
// Loopback only; the probes are simulated (no packets).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { HubConnectionBuilder, HttpTransportType, LogLevel } from '@microsoft/signalr';
import { createSimulatedEngine } from '../dist/engine/index.js';
import { AgentProgram } from '../dist/agent/program.js';
import { AgentState } from '../dist/agent/state.js';
import { Spool } from '../dist/agent/spool.js';

const AGENTS = Number(process.env.BENCH_AGENTS ?? 200);
const TARGETS = Number(process.env.BENCH_TARGETS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const SPOOL_MINUTES = Number(process.env.BENCH_SPOOL_MINUTES ?? 60);
const port = 19000 + Math.floor(Math.random() * 1000);
const url = `http://127.0.0.1:${port}`;
const work = mkdtempSync(join(tmpdir(), 'hopwatch-bench-agents-'));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const hops = Array.from({ length: 29 }, (_, i) => ({ v4: `10.251.60.${i + 1}`, rttMs: 0.5 + i * 0.5 }));
const target = '10.251.60.200';
const scenario = { name: 'bench-30-hops', seed: 1, hops, target: { v4: target, rttMs: 15 } };

const server = spawn(process.execPath, ['dist/server/main.js'], {
  env: {
    ...process.env,
    HOPWATCH_PORT: String(port),
    HOPWATCH_HOST: '127.0.0.1',
    HOPWATCH_DATA_DIR: join(work, 'data'),
    HOPWATCH_ROOT_PASSWORD: 'bench',
    // BENCH_SERVER_LOG=1: every request with its server-side duration on stdout (diagnosis).
    HOPWATCH_LOG_LEVEL: process.env.BENCH_SERVER_LOG ? 'info' : 'warn',
    HOPWATCH_SLOW_REQUEST_MS: process.env.BENCH_SERVER_LOG ? '0' : '1000',
    HOPWATCH_ENGINE: 'simulated',
    HOPWATCH_ENTITLED_TRACES: String(AGENTS * TARGETS + 100),
  },
  stdio: ['ignore', process.env.BENCH_SERVER_LOG ? 'inherit' : 'ignore', 'inherit'],
});
const programs = [];
let hub;
const quiet = () => undefined;

async function call(cookie, path, init = {}) {
  const r = await fetch(url + path, { ...init, headers: { cookie, ...(init.headers ?? {}) } });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return r.status === 204 ? null : r.json();
}

/** Creates an agent and enrols it: its credentials for AgentProgram. */
async function newAgent(cookie, name) {
  const a = await call(cookie, `/cmd/createAgent?name=${encodeURIComponent(name)}`);
  const link = await call(cookie, `/cmd/download-link/${a.ID}`);
  const key = new URL(link.SetupLink).searchParams.get('key');
  const { Credential } = await call('', '/api/agent/enrol', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ AgentId: a.ID, Key: key }) });
  return { agentId: a.ID, server: url, credential: Credential, machineId: `bench-${a.ID}` };
}

const cpu = () => {
  const f = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};
const rssMb = (pid = server.pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const cpuOf = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};
const RSS_TARGETS = Number(process.env.BENCH_RSS_TARGETS ?? 50);
const PROCESS_SECONDS = Number(process.env.BENCH_PROCESS_SECONDS ?? 30);

/**
 * The agent program as it runs on a machine (dist/agent/cli.js run, its own process, the
 * simulated engine) with RSS_TARGETS targets at 1 s: its RSS, and its CPU per 1,000 probes
 * against the Local Machine's share of the same work (bench/local-runtime.mjs: the same
 * runtime and engine in a process of its own, no link, no spool).
 */
async function agentProcess(cookie) {
  const scenarioFile = join(work, 'scenario.json');
  writeFileSync(scenarioFile, JSON.stringify(scenario));
  const creds = await newAgent(cookie, 'bench process');
  const ids = [];
  // Started while the agent is away: it gets them all in its first assignment.
  for (let t = 0; t < RSS_TARGETS; t++) ids.push((await call(cookie, `/cmd/newtarget?target=${target}&traceInterval=1&agentID=${creds.agentId}`)).ID);
  const dir = join(work, 'agent-process');
  mkdirSync(dir, { recursive: true });
  new AgentState(dir).writeCredentials(creds);
  const env = { ...process.env, HOPWATCH_AGENT_DIR: dir, HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: scenarioFile };
  const agent = spawn(process.execPath, ['dist/agent/cli.js', 'run'], { env, stdio: ['ignore', process.env.BENCH_AGENT_LOG ? 'inherit' : 'ignore', 'inherit'] });
  const local = spawn(process.execPath, ['bench/local-runtime.mjs', scenarioFile, String(RSS_TARGETS), target], { stdio: ['ignore', 'pipe', 'inherit'] });
  let localProbes = 0;
  local.stdout.on('data', (d) => {
    const m = /probes (\d+)\s*$/.exec(d.toString());
    if (m) localProbes = Number(m[1]);
  });
  const stored = async () => {
    let n = 0;
    for (const id of ids) n += await hub.invoke('GetSampleCountForSession', id);
    return n;
  };
  try {
    await sleep(10_000); // both warm: traces started, the agent connected and assigned
    const a0 = cpuOf(agent.pid);
    const l0 = cpuOf(local.pid);
    const s0 = await stored();
    const lp0 = localProbes;
    let rss = 0;
    for (let s = 0; s < PROCESS_SECONDS; s++) {
      await sleep(1000);
      rss = Math.max(rss, rssMb(agent.pid));
    }
    const agentCpu = cpuOf(agent.pid) - a0;
    const localCpu = cpuOf(local.pid) - l0;
    await sleep(1500); // the last batches committed
    const agentProbes = (await stored()) - s0;
    const localDone = localProbes - lp0;
    const per = (cpuS, n) => (n > 0 ? (cpuS * 1000 * 1000) / n : NaN);
    const agentPer = per(agentCpu, agentProbes);
    const localPer = per(localCpu, localDone);
    console.log(`agent process, ${RSS_TARGETS} targets x 30 hops at 1 s: RSS ${rss.toFixed(0)} MB peak over ${PROCESS_SECONDS} s (goal <= 80 MB)`);
    console.log(
      `CPU per 1,000 probes: agent ${agentPer.toFixed(1)} ms (${agentProbes.toLocaleString('en')} stored probes, ${agentCpu.toFixed(2)} s CPU), ` +
        `Local Machine runtime alone ${localPer.toFixed(1)} ms (${localDone.toLocaleString('en')} probes, ${localCpu.toFixed(2)} s CPU): ${(agentPer / localPer).toFixed(2)}x (goal <= 1.2x)`,
    );
  } finally {
    agent.kill('SIGTERM');
    local.kill('SIGTERM');
    await Promise.all([new Promise((r) => agent.once('exit', r)), new Promise((r) => local.once('exit', r))]);
  }
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
    body: JSON.stringify({ Username: 'admin', Password: 'bench', RememberMe: false }),
  });
  const cookie = login.headers.getSetCookie()[0].split(';')[0];
  const engine = createSimulatedEngine({ scenarios: [scenario], clock: 'real' });

  // ---- live streaming ----
  const t0 = Date.now();
  const sessions = [];
  const phase = { enrol: 0, start: 0, newtarget: 0 };
  const timed = async (k, fn) => {
    const s0 = performance.now();
    try {
      return await fn();
    } finally {
      phase[k] += performance.now() - s0;
    }
  };
  // Every agent and target is created before any agent connects: the traces start with each
  // agent's first assignment. (Started one agent after another, each newtarget waited for the
  // store behind the ingest commits of the agents already streaming; on a CPU-starved host those
  // took seconds each, so a 5-agent start took minutes. See docs/benchmarks.md.)
  const delays = [];
  let measuring = false;
  const lastRtt = 15; // the round ends with the target's answer
  const allCreds = [];
  for (let i = 0; i < AGENTS; i++) {
    const creds = await timed('enrol', () => newAgent(cookie, `bench agent ${i + 1}`));
    allCreds.push(creds);
    for (let t = 0; t < TARGETS; t++) sessions.push((await timed('newtarget', () => call(cookie, `/cmd/newtarget?target=${target}&traceInterval=1&agentID=${creds.agentId}`))).ID);
  }
  // The console client connects before the agents stream: with 200 agents on a starved host its
  // negotiated connection expired before the WebSocket arrived.
  hub = new HubConnectionBuilder().withUrl(`${url}/mainHub`, { transport: HttpTransportType.WebSockets, headers: { cookie } }).configureLogging(LogLevel.None).build();
  hub.on('HostUpdated', (_id, time) => {
    if (measuring) delays.push(Date.now() - (Date.parse(time) + lastRtt));
  });
  hub.onclose((err) => console.log(`console client closed: ${err?.message ?? 'no error'}`));
  await hub.start();
  for (const [i, creds] of allCreds.entries()) {
    const p = new AgentProgram(creds, { state: new AgentState(join(work, `agent-${i}`)), engine, mode: 2, log: quiet });
    programs.push(p);
    await timed('start', () => p.start());
  }
  console.log(`start phases: enrol ${(phase.enrol / 1000).toFixed(1)} s, program start ${(phase.start / 1000).toFixed(1)} s, newtarget ${(phase.newtarget / 1000).toFixed(1)} s (${(phase.newtarget / (AGENTS * TARGETS)).toFixed(0)} ms each)`);
  console.log(`bench:agents ${new Date().toISOString()}: ${AGENTS} agents x ${TARGETS} targets (30 hops, 1 s) started in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  for (const id of sessions.filter((_, i) => i % Math.max(1, Math.floor(sessions.length / 50)) === 0)) await hub.invoke('RegisterForNewSamples', id);
  await sleep(3000);
  // This process runs every agent (their simulated probes, spools and links) and the console
  // client on one event loop: its delay says whether the figures are the server's or its own.
  const loop = monitorEventLoopDelay({ resolution: 20 });
  loop.enable();
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
  console.log(`server CPU: ${(cpuShare * 100).toFixed(1)}% of one core; memory ${rssMb().toFixed(0)} MB RSS (peak ${peak.toFixed(0)} MB)`);
  console.log(`round end on the agent -> HostUpdated in a console client: p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${delays[delays.length - 1]} ms (${delays.length} events; goal p99 <= 300 ms)`);
  loop.disable();
  console.log(`bench process event loop delay while measuring: p50 ${(loop.percentile(50) / 1e6).toFixed(0)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms, max ${(loop.max / 1e6).toFixed(0)} ms`);
  console.log('(agents gather rounds for 200 ms before writing a batch to the spool and sending it; that wait is included)');
  await Promise.all(programs.map((p) => p.stop().catch(() => undefined)));
  programs.length = 0;

  // ---- backfill ----
  const creds = await newAgent(cookie, 'bench backfill');
  const ids = [];
  for (let t = 0; t < 10; t++) {
    const id = (await call(cookie, `/cmd/newtarget?target=${target}&traceInterval=1&agentID=${creds.agentId}`)).ID;
    await call(cookie, `/cmd/stoptrace?ID=${id}`); // paused: only the spool's rounds arrive
    ids.push(id);
  }
  const dir = join(work, 'agent-backfill');
  const state = new AgentState(dir);
  state.writeCredentials(creds);
  const spool = new Spool(state.spoolDir, undefined, quiet);
  const start = Date.now() - SPOOL_MINUTES * 60_000 + 60_000;
  let rounds = [];
  let total = 0;
  for (let s = 0; s < SPOOL_MINUTES * 60; s++) {
    for (const id of ids) {
      rounds.push({ traceId: id, time: start + s * 1000, hops: hops.map((h, i) => ({ ttl: i + 1, address: h.v4, name: null, rtt: h.rttMs })).concat([{ ttl: 30, address: target, name: null, rtt: 15 }]) });
      total += 30;
      if (rounds.length === 2000) {
        spool.append(rounds);
        rounds = [];
      }
    }
  }
  if (rounds.length) spool.append(rounds);
  const files = spool.size;
  const p = new AgentProgram(creds, { state, engine, mode: 2, log: quiet });
  programs.push(p);
  const b0 = Date.now();
  await p.start();
  // The program's own spool count (a second Spool over the directory would not see deletions).
  while (p.spooled > 0) await sleep(50);
  const backfillS = (Date.now() - b0) / 1000;
  let stored = 0;
  for (const id of ids) stored += await hub.invoke('GetSampleCountForSession', id);
  console.log(`backfill: ${total.toLocaleString('en')} hop samples (${SPOOL_MINUTES} min x 10 targets x 30 hops at 1 s, ${files} batches) committed ${backfillS.toFixed(1)} s after connecting; stored ${stored.toLocaleString('en')} (goal <= 10 s)`);
  await p.stop();
  programs.length = 0;
  await agentProcess(cookie);
} finally {
  await Promise.allSettled(programs.map((p) => p.stop()));
  await hub?.stop().catch(() => undefined);
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(work, { recursive: true, force: true });
}
