// npm run bench:agents (issue 17): AGENTS remote agents over loopback, each its own agent link
// connection through the real agent program code (dist/agent/program.js; rounds of 30 hops from
// bench/synthetic-engine.mjs, or the simulated engine with BENCH_STREAM_ENGINE=simulated),
// TARGETS traces each at 1 s, against the built appliance. The
// agents run in child processes (bench/agents-child.mjs, AGENTS_PER_PROCESS each), so that the
// bench's own event loop is not what is measured; the console client stays in this process.
//   - server CPU share and memory while they stream (BENCH_SECONDS, after BENCH_WARMUP_SECONDS
//     from the agents' start: the steady state; the start-up's delays are printed apart);
//   - delay from a round's end (sample time + the round's longest rtt) on the agent to the
//     receipt of HostUpdated in a console client registered for some of the targets (p50, p99);
//   - backfill: one agent reconnecting with a spool of SPOOL_MINUTES of 10 targets x 30 hops at
//     1 s (60 min: 36,000 rounds, 1.08 M hop samples): time from connect to the last
//     acknowledgement (every batch committed);
//   - process: the agent program in its own process with 50 targets on the simulated engine
//     against the runtime alone (bench/local-runtime.mjs): RSS, and CPU per 1,000 probes in
//     PROCESS_WINDOWS windows, both pinned to CPU 0 and the server to the others.
//     BENCH_PROCESS_ENGINE=raw (root): both trace with the raw sockets through a 30-hop chain of
//     network namespaces this bench builds (test/netns/topology.ts) instead, each as it runs in
//     the product (the agent on its own thread, the Local Machine in the probe worker).
// Loopback only; the probes are simulated (no packets), except the raw process phase's, which
// go only to the namespaces it created.
import { execFileSync, fork, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { HubConnectionBuilder, HttpTransportType, LogLevel } from '@microsoft/signalr';
import { createSimulatedEngine } from '../dist/engine/index.js';
import { AgentProgram } from '../dist/agent/program.js';
import { AgentState } from '../dist/agent/state.js';
import { Spool } from '../dist/agent/spool.js';
import { BatchBuffer } from '../dist/agent/batch-buffer.js';
import { wireRoundText } from '../dist/agent/protocol.js';
import { cpuSeconds, rssMb as rssOf, hostLoad, serverLoop as serverLoopOf } from './appliance.mjs';

const AGENTS = Number(process.env.BENCH_AGENTS ?? 200);
const TARGETS = Number(process.env.BENCH_TARGETS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
/** From the agents' start to the measured window of the stream phase. */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 10);
const SPOOL_MINUTES = Number(process.env.BENCH_SPOOL_MINUTES ?? 60);
const PER_PROCESS = Math.max(1, Number(process.env.BENCH_AGENTS_PER_PROCESS ?? 25));
// The 200 agents' rounds: 'synthetic' (bench/synthetic-engine.mjs: rounds without probes) or
// 'simulated' (the full simulated engine, 1 to 1.4 of this host's 2 cores for 30,000 probes a second).
const STREAM_ENGINE = process.env.BENCH_STREAM_ENGINE === 'simulated' ? 'simulated' : 'synthetic';
// BENCH_PHASES: which parts run (default all): stream, backfill, process.
const PHASES = new Set((process.env.BENCH_PHASES ?? 'stream,backfill,process').split(',').map((s) => s.trim()));
const metricsToken = randomBytes(16).toString('hex');
const port = 19000 + Math.floor(Math.random() * 1000);
const url = `http://127.0.0.1:${port}`;
const work = mkdtempSync(join(tmpdir(), 'hopwatch-bench-agents-'));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const hops = Array.from({ length: 29 }, (_, i) => ({ v4: `10.251.60.${i + 1}`, rttMs: 0.5 + i * 0.5 }));
const target = '10.251.60.200';
const scenario = { name: 'bench-30-hops', seed: 1, hops, target: { v4: target, rttMs: 15 } };

// BENCH_SERVER_NODE_FLAGS: node flags for the server beside its own (server/node-flags.ts), for
// diagnosis, e.g. '--cpu-prof --cpu-prof-dir=DIR'.
const serverFlags = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const { serverNodeFlags } = await import('./server-flags.mjs');
const server = spawn(process.execPath, [...serverNodeFlags, ...serverFlags, 'dist/server/main.js'], {
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
    // /metrics: the server's own event-loop delay (prom-client resets it at every scrape).
    HOPWATCH_METRICS_TOKEN: metricsToken,
  },
  stdio: ['ignore', process.env.BENCH_SERVER_LOG ? 'inherit' : 'ignore', 'inherit'],
});
const programs = [];
const children = [];
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

const cpu = () => cpuSeconds(server.pid);
const rssMb = (pid = server.pid) => rssOf(pid);
const cpuOf = cpuSeconds;
/** The part of cpuOf spent in the kernel (system time): the agent's writes, sends and syncs. */
const systemCpuOf = (pid) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[12]) / 100;
const load = hostLoad;
/** The server's event-loop delay since the previous scrape (prom-client's histogram). */
const serverLoop = () => serverLoopOf(url, metricsToken);
/** Asks an IPC child for its counts (bench/agent-count.mjs, bench/local-runtime.mjs). */
const askCount = (child) =>
  new Promise((resolve) => {
    child.once('message', resolve);
    child.send('count');
  });
const mb = (n) => (n / 1024 / 1024).toFixed(1);
const memText = (m) => {
  const sp = (n) => (m.spaces?.[n] ? `${mb(m.spaces[n][0])}` : '?');
  return `heap used ${mb(m.heapUsed)} / total ${mb(m.heapTotal)} MB (new space ${sp('new_space')}, old ${sp('old_space')}, code ${sp('code_space')}), external ${mb(m.external)} MB (array buffers ${mb(m.arrayBuffers)} MB), RSS ${mb(m.rss)} MB`;
};
const RSS_TARGETS = Number(process.env.BENCH_RSS_TARGETS ?? 50);
const PROCESS_SECONDS = Number(process.env.BENCH_PROCESS_SECONDS ?? 60);
const PROCESS_WINDOWS = Math.max(1, Number(process.env.BENCH_PROCESS_WINDOWS ?? 4));

const medianOf = (xs) => {
  const a = [...xs].sort((x, y) => x - y);
  return a.length % 2 ? a[(a.length - 1) / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
};

/**
 * The agent and the runtime alone share CPU 0 and the server gets the others (taskset, every
 * thread), when the machine has two or more. Unpinned on this 2-core host, the agent's own
 * code (the same engine and simulation as the runtime alone's) ran 1.3 to 1.6 times slower
 * than the runtime alone's, since its work comes in bursts with the server's (a batch sent is
 * a batch parsed and committed at that moment), and the ratio read 1.10 to 1.58 from run to run.
 * On a real deployment the agent runs on a machine of its own. BENCH_PIN=0 leaves them unpinned.
 */
function pinForProcessPhase(agentPid, localPid) {
  const cpus = availableParallelism();
  if (process.env.BENCH_PIN === '0' || cpus < 2) return 'not pinned';
  try {
    for (const pid of [agentPid, localPid]) execFileSync('taskset', ['-a', '-p', '-c', '0', String(pid)], { stdio: 'ignore' });
    execFileSync('taskset', ['-a', '-p', '-c', `1-${cpus - 1}`, String(server.pid)], { stdio: 'ignore' });
    return `agent and runtime alone pinned to CPU 0, the server to CPU 1-${cpus - 1}`;
  } catch (err) {
    return `not pinned (taskset: ${err.message})`;
  }
}
// Node flags of the agent process and of the runtime alone: by default those the agent's
// launchers give (agent/bundle/hopwatch-agent, container/entrypoint.sh, agent/cli.ts's #! line);
// BENCH_AGENT_NODE_FLAGS='' runs both without.
/** The process phase's engine: the simulated one, or (BENCH_PROCESS_ENGINE=raw) raw sockets through a netns chain. */
const PROCESS_ENGINE = process.env.BENCH_PROCESS_ENGINE === 'raw' ? 'raw' : 'simulated';
const AGENT_FLAGS = (process.env.BENCH_AGENT_NODE_FLAGS ?? '--max-semi-space-size=2 --optimize-for-size').split(' ').filter(Boolean);

/**
 * The agent program as it runs on a machine (dist/agent/cli.js run, its own process, the
 * simulated engine) with RSS_TARGETS targets at 1 s: its RSS, and its CPU per 1,000 probes
 * against the Local Machine's share of the same work (bench/local-runtime.mjs: the same
 * runtime and engine in a process of its own, no link, no spool). Probes are counted where
 * they are made in both processes (the agent: bench/agent-count-preload.mjs, which only counts
 * the rounds its program receives), at the same moments as the CPU times.
 */
async function agentProcess(cookie) {
  const scenarioFile = join(work, 'scenario.json');
  writeFileSync(scenarioFile, JSON.stringify(scenario));
  const chain = PROCESS_ENGINE === 'raw' ? await rawChain() : undefined;
  const traced = chain ? chain.target.v4 : target;
  try {
    await agentProcessOn(cookie, scenarioFile, traced);
  } finally {
    chain?.destroy();
  }
}

/** A chain of 29 routers and a target in network namespaces (test/netns/topology.ts, built for bench:engine too). */
async function rawChain() {
  if (process.getuid?.() !== 0) throw new Error('BENCH_PROCESS_ENGINE=raw needs root (network namespaces, raw sockets)');
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'bench/tsconfig.engine.json'], { stdio: 'inherit' });
  const { buildTopology } = await import('../dist/test/netns/topology.js');
  const chain = buildTopology({ id: 178, routers: 29 });
  // Namespaces go on Ctrl-C or a kill too (a finally block does not run then).
  const gone = () => {
    chain.destroy();
    process.exit(130);
  };
  process.once('SIGINT', gone);
  process.once('SIGTERM', gone);
  return {
    target: chain.target,
    destroy: () => {
      process.off('SIGINT', gone);
      process.off('SIGTERM', gone);
      chain.destroy();
    },
  };
}

async function agentProcessOn(cookie, scenarioFile, target) {
  const creds = await newAgent(cookie, 'bench process');
  const ids = [];
  // Started while the agent is away: it gets them all in its first assignment.
  for (let t = 0; t < RSS_TARGETS; t++) ids.push((await call(cookie, `/cmd/newtarget?target=${target}&traceInterval=1&agentID=${creds.agentId}`)).ID);
  const dir = join(work, 'agent-process');
  mkdirSync(dir, { recursive: true });
  new AgentState(dir).writeCredentials(creds);
  const env = { ...process.env, HOPWATCH_AGENT_DIR: dir, HOPWATCH_ENGINE: PROCESS_ENGINE, HOPWATCH_SIM_SCENARIOS: scenarioFile };
  const agent = spawn(process.execPath, [...AGENT_FLAGS, '--import', new URL('./agent-count-preload.mjs', import.meta.url).href, 'dist/agent/cli.js', 'run'], {
    env,
    stdio: ['ignore', process.env.BENCH_AGENT_LOG ? 'inherit' : 'ignore', 'inherit', 'ipc'],
  });
  const local = spawn(process.execPath, [...AGENT_FLAGS, 'bench/local-runtime.mjs', scenarioFile, String(RSS_TARGETS), target, PROCESS_ENGINE], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pinned = pinForProcessPhase(agent.pid, local.pid);
  try {
    await sleep(10_000); // both warm: traces started, the agent connected and assigned
    const load0 = load();
    let rss = 0;
    let localRss = 0;
    const windows = [];
    const per = (cpuS, n) => (n > 0 ? (cpuS * 1000 * 1000) / n : NaN);
    let ac1;
    let lc1;
    for (let w = 0; w < PROCESS_WINDOWS; w++) {
      const [ac0, lc0] = await Promise.all([askCount(agent), askCount(local)]);
      const a0 = cpuOf(agent.pid);
      const l0 = cpuOf(local.pid);
      const as0 = systemCpuOf(agent.pid);
      const ls0 = systemCpuOf(local.pid);
      for (let s = 0; s < PROCESS_SECONDS / PROCESS_WINDOWS; s++) {
        await sleep(1000);
        rss = Math.max(rss, rssMb(agent.pid));
        localRss = Math.max(localRss, rssMb(local.pid));
      }
      [ac1, lc1] = await Promise.all([askCount(agent), askCount(local)]);
      const agentCpu = cpuOf(agent.pid) - a0;
      const localCpu = cpuOf(local.pid) - l0;
      const agentSystem = systemCpuOf(agent.pid) - as0;
      const localSystem = systemCpuOf(local.pid) - ls0;
      windows.push({ agentCpu, localCpu, agentSystem, localSystem, agentProbes: ac1.probes - ac0.probes, localProbes: lc1.probes - lc0.probes });
    }
    if (process.env.BENCH_HEAP_SNAPSHOT) {
      const written = await new Promise((resolve) => {
        agent.once('message', resolve);
        agent.send({ t: 'heapSnapshot', file: process.env.BENCH_HEAP_SNAPSHOT });
      });
      console.log(`agent heap snapshot: ${written.file}`);
    }
    console.log(`agent process phase, ${PROCESS_ENGINE === 'raw' ? `raw sockets through a 30-hop netns chain to ${target}` : 'simulated engine'}${AGENT_FLAGS.length ? ` (node flags ${AGENT_FLAGS.join(' ')})` : ''}: ${load0} at start, ${load()} at end; ${pinned}`);
    console.log(`agent process, ${RSS_TARGETS} targets x 30 hops at 1 s: RSS ${rss.toFixed(0)} MB peak over ${PROCESS_SECONDS} s (goal <= 80 MB); Local Machine runtime alone: ${localRss.toFixed(0)} MB`);
    console.log(`  agent at the end: ${memText(ac1.memory)}`);
    console.log(`  runtime alone at the end: ${memText(lc1.memory)}`);
    const ratios = windows.map((x) => per(x.agentCpu, x.agentProbes) / per(x.localCpu, x.localProbes));
    for (const [i, x] of windows.entries()) {
      console.log(
        `  window ${i + 1}: agent ${per(x.agentCpu, x.agentProbes).toFixed(1)} ms (${x.agentProbes.toLocaleString('en')} probes, ${x.agentCpu.toFixed(2)} s CPU, ${x.agentSystem.toFixed(2)} s of it system), ` +
          `runtime alone ${per(x.localCpu, x.localProbes).toFixed(1)} ms (${x.localProbes.toLocaleString('en')} probes, ${x.localCpu.toFixed(2)} s CPU, ${x.localSystem.toFixed(2)} s system): ${ratios[i].toFixed(2)}x`,
      );
    }
    const sum = (k) => windows.reduce((a, x) => a + x[k], 0);
    const agentPer = per(sum('agentCpu'), sum('agentProbes'));
    const localPer = per(sum('localCpu'), sum('localProbes'));
    console.log(
      `CPU per 1,000 probes: agent ${agentPer.toFixed(1)} ms, Local Machine runtime alone ${localPer.toFixed(1)} ms over ${PROCESS_SECONDS} s: ${(agentPer / localPer).toFixed(2)}x ` +
        `(windows: median ${medianOf(ratios).toFixed(2)}x, ${ratios.map((r) => r.toFixed(2)).join(' ')}) (goal <= 1.2x)`,
    );
  } finally {
    if (pinned.includes('pinned to')) execFileSync('taskset', ['-a', '-p', '-c', `0-${availableParallelism() - 1}`, String(server.pid)], { stdio: 'ignore' });
    agent.kill('SIGTERM');
    local.kill('SIGTERM');
    await Promise.all([new Promise((r) => agent.once('exit', r)), new Promise((r) => local.once('exit', r))]);
  }
}

/** Forks a bench child running these agents; resolves once all have started (connecting). */
function agentChild(creds) {
  const execArgv = (process.env.BENCH_CHILD_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = fork(new URL('./agents-child.mjs', import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('message', (m) => (m.t === 'started' ? resolve(child) : reject(new Error(`child: ${JSON.stringify(m)}`))));
    child.once('exit', (code) => reject(new Error(`bench child exited (${code}) before its agents started`)));
    child.send({ t: 'start', creds, work, scenario, engine: STREAM_ENGINE });
  });
}
const childReport = (child) =>
  new Promise((resolve) => {
    child.once('message', resolve);
    child.send({ t: 'report' });
  });

async function stream(cookie) {
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
  /** [receipt time, delay] of each event, for the delay by part of the window (a start-up backlog shows in the first). */
  const delaysAt = [];
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
  /** Delays of the start-up: from the agents' start to the measured window (their hellos, the first rounds of every trace). */
  const startupDelays = [];
  let startingUp = false;
  hub.on('HostUpdated', (_id, time) => {
    const d = Date.now() - (Date.parse(time) + lastRtt);
    if (startingUp) startupDelays.push(d);
    if (measuring) delays.push(d);
    if (measuring) delaysAt.push([Date.now(), d]);
  });
  // Registered before the agents stream: under a backlog of commits, hub calls waited minutes.
  for (const id of sessions.filter((_, i) => i % Math.max(1, Math.floor(sessions.length / 50)) === 0)) await hub.invoke('RegisterForNewSamples', id);
  const s0 = performance.now();
  startingUp = true;
  const procs = [];
  for (let i = 0; i < allCreds.length; i += PER_PROCESS) procs.push(allCreds.slice(i, i + PER_PROCESS));
  const forked = await Promise.all(procs.map((c) => agentChild(c)));
  phase.start = performance.now() - s0;
  console.log(`start phases: enrol ${(phase.enrol / 1000).toFixed(1)} s, newtarget ${(phase.newtarget / 1000).toFixed(1)} s (${(phase.newtarget / (AGENTS * TARGETS)).toFixed(0)} ms each), ${forked.length} agent processes (up to ${PER_PROCESS} agents each) forked and started ${(phase.start / 1000).toFixed(1)} s; rounds from the ${STREAM_ENGINE} engine${STREAM_ENGINE === 'synthetic' ? ' (bench/synthetic-engine.mjs: no probes)' : ''}`);
  console.log(`bench:agents ${new Date().toISOString()}: ${AGENTS} agents x ${TARGETS} targets (30 hops, 1 s) started in ${((Date.now() - t0) / 1000).toFixed(1)} s; ${load()}`);

  // The window measures the steady state: 200 agents starting at once (a server restart brings
  // them back together too) first queue their hellos, assignments and first rounds; that
  // start-up's delays are printed apart.
  await sleep(WARMUP_SECONDS * 1000);
  startingUp = false;
  // The console client's event loop (this process) and the agent processes' loops: their delay
  // says whether the figures are the server's or the harness's own.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  for (const c of forked) c.send({ t: 'measure' });
  const committed0 = (await serverLoop()).committed; // also resets the server's histogram
  const load0 = load();
  const cpu0 = cpu();
  const childCpu0 = forked.map((c) => cpuOf(c.pid));
  const w0 = Date.now();
  measuring = true;
  let peak = 0;
  while (Date.now() - w0 < SECONDS * 1000) {
    await sleep(1000);
    peak = Math.max(peak, rssMb());
  }
  measuring = false;
  const window = (Date.now() - w0) / 1000;
  const cpuShare = (cpu() - cpu0) / window;
  const childCpu = forked.reduce((sum, c, i) => sum + cpuOf(c.pid) - childCpu0[i], 0) / window;
  const reports = await Promise.all(forked.map(childReport));
  const srvLoop = await serverLoop();
  loop.disable();
  delays.sort((a, b) => a - b);
  const q = (p) => delays[Math.min(delays.length - 1, Math.floor(p * delays.length))];
  const rounds = reports.reduce((s, r) => s + r.rounds, 0);
  const probes = reports.reduce((s, r) => s + r.probes, 0);
  const worst = (k) => Math.max(...reports.map((r) => r.loop[k]));
  const median = (k) => {
    const v = reports.map((r) => r.loop[k]).sort((a, b) => a - b);
    return v[Math.floor(v.length / 2)];
  };
  console.log(`measured over ${window.toFixed(1)} s: ${load0} at start, ${load()} at end`);
  console.log(`agents received ${rounds.toLocaleString('en')} rounds (${probes.toLocaleString('en')} probes) from their engines in the window (the schedule: ${(AGENTS * TARGETS * window).toFixed(0)} rounds); the server committed ${(srvLoop.committed - committed0).toLocaleString('en')} hop samples in it`);
  console.log(`server CPU: ${(cpuShare * 100).toFixed(1)}% of one core; memory ${rssMb().toFixed(0)} MB RSS (peak ${peak.toFixed(0)} MB); server event loop delay p50 ${srvLoop.p50.toFixed(0)} ms, p99 ${srvLoop.p99.toFixed(0)} ms, max ${srvLoop.max.toFixed(0)} ms`);
  console.log(`agent processes (${forked.length}) CPU: ${(childCpu * 100).toFixed(1)}% of one core together`);
  if (delays.length) console.log(`round end on the agent -> HostUpdated in a console client: p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${delays[delays.length - 1]} ms (${delays.length} events; goal p99 <= 300 ms)`);
  else console.log(`round end on the agent -> HostUpdated in a console client: (0 events in ${SECONDS} s)`);
  if (startupDelays.length) {
    startupDelays.sort((a, b) => a - b);
    console.log(`  the start-up before the window (${WARMUP_SECONDS} s from the agents' start, BENCH_WARMUP_SECONDS): p50 ${startupDelays[Math.floor(startupDelays.length / 2)]} ms, p99 ${startupDelays[Math.min(startupDelays.length - 1, Math.floor(0.99 * startupDelays.length))]} ms, max ${startupDelays[startupDelays.length - 1]} ms (${startupDelays.length} events)`);
  }
  const thirds = [0, 1, 2].map((k) => delaysAt.filter(([at]) => Math.floor((3 * (at - w0)) / (window * 1000)) === k).map(([, d]) => d).sort((a, b) => a - b));
  if (delays.length) {
    console.log(`  by third of the window: ${thirds.map((d, k) => (d.length ? `${k + 1}: p50 ${d[Math.floor(d.length / 2)]} ms, p99 ${d[Math.min(d.length - 1, Math.floor(0.99 * d.length))]} ms (${d.length})` : `${k + 1}: no events`)).join('; ')}`);
  }
  const slice = Number(process.env.BENCH_SLICE_SECONDS ?? 0);
  if (slice > 0 && delays.length) {
    // Finer than thirds, for where a start-up backlog ends (diagnosis).
    const parts = [];
    for (let from = 0; from < window; from += slice) {
      const d = delaysAt.filter(([at]) => at - w0 >= from * 1000 && at - w0 < (from + slice) * 1000).map(([, v]) => v).sort((a, b) => a - b);
      parts.push(d.length ? `${from}-${from + slice} s: p99 ${d[Math.min(d.length - 1, Math.floor(0.99 * d.length))]} max ${d[d.length - 1]} (${d.length})` : `${from}-${from + slice} s: none`);
    }
    console.log(`  by ${slice} s: ${parts.join('; ')}`);
  }
  console.log(`agent processes' event loop delay while measuring: p50 ${median('p50').toFixed(0)} ms (median process; worst ${worst('p50').toFixed(0)} ms), p99 worst ${worst('p99').toFixed(0)} ms, max ${worst('max').toFixed(0)} ms`);
  console.log(`console client (bench parent) event loop delay: p50 ${(loop.percentile(50) / 1e6).toFixed(0)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms, max ${(loop.max / 1e6).toFixed(0)} ms`);
  console.log('(agents gather rounds for 50 ms (DefaultBatchMs, agent/program.ts) before writing a batch to the spool and sending it; that wait is included)');
  await Promise.all(
    forked.map((c) => {
      const exited = new Promise((r) => c.once('exit', r));
      c.send({ t: 'stop' });
      return exited;
    }),
  );
  children.length = 0;
}

async function backfill(cookie, engine) {
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
  // Batches of 2,000 rounds (MaxBatchRounds), as the program gathers them while the server is away.
  const batch = new BatchBuffer();
  const roundHops = hops.map((h, i) => ({ ttl: i + 1, address: h.v4, name: null, rtt: h.rttMs })).concat([{ ttl: 30, address: target, name: null, rtt: 15 }]);
  let total = 0;
  for (let s = 0; s < SPOOL_MINUTES * 60; s++) {
    for (const id of ids) {
      batch.add(wireRoundText(id, { time: start + s * 1000, hops: roundHops }));
      total += 30;
      if (batch.rounds === 2000) spool.append(batch);
    }
  }
  if (batch.rounds) spool.append(batch);
  const files = spool.size;
  spool.close(); // the program's own Spool takes the directory over
  const p = new AgentProgram(creds, { state, engine, mode: 2, log: quiet });
  programs.push(p);
  const load0 = load();
  const b0 = Date.now();
  await p.start();
  // The program's own spool count (a second Spool over the directory would not see deletions).
  while (p.spooled > 0) await sleep(50);
  const backfillS = (Date.now() - b0) / 1000;
  let stored = 0;
  for (const id of ids) stored += await hub.invoke('GetSampleCountForSession', id);
  console.log(`backfill: ${total.toLocaleString('en')} hop samples (${SPOOL_MINUTES} min x 10 targets x 30 hops at 1 s, ${files} batches) committed ${backfillS.toFixed(1)} s after connecting; stored ${stored.toLocaleString('en')} (goal <= 10 s); ${load0} at start, ${load()} at end`);
  await p.stop();
  programs.length = 0;
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
  console.log(`bench:agents ${new Date().toISOString()}: ${load()}`);
  hub = new HubConnectionBuilder().withUrl(`${url}/mainHub`, { transport: HttpTransportType.WebSockets, headers: { cookie } }).configureLogging(LogLevel.None).build();
  hub.onclose((err) => console.log(`console client closed: ${err?.message ?? 'no error'}`));
  await hub.start();
  if (PHASES.has('stream') && AGENTS > 0) await stream(cookie);
  if (PHASES.has('backfill')) await backfill(cookie, createSimulatedEngine({ scenarios: [scenario], clock: 'real' }));
  if (PHASES.has('process')) await agentProcess(cookie);
} finally {
  for (const c of children) c.kill('SIGTERM');
  await Promise.allSettled(programs.map((p) => p.stop()));
  await hub?.stop().catch(() => undefined);
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(work, { recursive: true, force: true });
}
