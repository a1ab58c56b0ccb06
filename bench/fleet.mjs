// The pieces of a simulated agent fleet against built appliances, shared by bench:agents
// (bench/agents.mjs: one appliance) and bench:cluster (bench/cluster.mjs: replicas on PostgreSQL
// and Redis, and one embedded appliance beside them): the server process, sign-in, agent
// enrolment, the agent child processes (bench/agents-child.mjs), and the /proc and /metrics
// readings. Loopback only.
import { fork, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { serverEnv, serverNodeFlags } from './server-flags.mjs';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const hops = Array.from({ length: 29 }, (_, i) => ({ v4: `10.251.60.${i + 1}`, rttMs: 0.5 + i * 0.5 }));
export const target = '10.251.60.200';
/** 30 hops; the round ends with the target's answer (its rtt: lastRtt). */
export const scenario = { name: 'bench-30-hops', seed: 1, hops, target: { v4: target, rttMs: 15 } };
export const lastRtt = 15;

/**
 * dist/server/main.js in its own process with the server's node flags and glibc settings, on `port`, its data in
 * `dataDir`; `env` beside (HOPWATCH_DATABASE_URL, HOPWATCH_REDIS_URL for a replica).
 * BENCH_SERVER_NODE_FLAGS: node flags beside the server's own, for diagnosis; BENCH_SERVER_LOG=1:
 * every request with its server-side duration on stdout.
 */
export function spawnServer({ port, dataDir, env = {} }) {
  const extra = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const proc = spawn(process.execPath, [...serverNodeFlags, ...extra, 'dist/server/main.js'], {
    env: {
      ...serverEnv,
      HOPWATCH_PORT: String(port),
      HOPWATCH_HOST: '127.0.0.1',
      HOPWATCH_DATA_DIR: dataDir,
      HOPWATCH_ROOT_PASSWORD: 'bench',
      HOPWATCH_LOG_LEVEL: process.env.BENCH_SERVER_LOG ? 'info' : 'warn',
      HOPWATCH_SLOW_REQUEST_MS: process.env.BENCH_SERVER_LOG ? '0' : '1000',
      HOPWATCH_ENGINE: 'simulated',
      ...env,
    },
    stdio: ['ignore', process.env.BENCH_SERVER_LOG ? 'inherit' : 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise((r) => proc.once('exit', r));
  return {
    url,
    port,
    proc,
    pid: proc.pid,
    exited,
    /** Resolves once /readyz answers 200 (within `seconds`). */
    async ready(seconds = 60) {
      for (const end = Date.now() + seconds * 1000; ; ) {
        if (proc.exitCode !== null) throw new Error(`server on port ${port} exited (${proc.exitCode})`);
        try {
          if ((await fetch(`${url}/readyz`)).ok) return;
        } catch {}
        if (Date.now() > end) throw new Error(`server on port ${port} not ready after ${seconds} s`);
        await sleep(100);
      }
    },
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await exited;
    },
    async kill() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      await exited;
    },
  };
}

/** Signs in as admin (HOPWATCH_ROOT_PASSWORD bench): the session cookie. */
export async function signIn(url) {
  const login = await fetch(`${url}/api/Account/Login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Username: 'admin', Password: 'bench', RememberMe: false }),
  });
  if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
  return login.headers.getSetCookie()[0].split(';')[0];
}

/** A call to the server at `url` with the session cookie; the JSON answer. */
export async function call(url, cookie, path, init = {}) {
  const r = await fetch(url + path, { ...init, headers: { cookie, ...(init.headers ?? {}) } });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return r.status === 204 ? null : r.json();
}

/**
 * Creates an agent on the server at `url` and enrols it: its credentials for AgentProgram,
 * linking to `linkUrl` (default `url`; a load balancer's address in bench:cluster).
 */
export async function newAgent(url, cookie, name, linkUrl = url) {
  const a = await call(url, cookie, `/cmd/createAgent?name=${encodeURIComponent(name)}`);
  const link = await call(url, cookie, `/cmd/download-link/${a.ID}`);
  const key = new URL(link.SetupLink).searchParams.get('key');
  const { Credential } = await call(url, '', '/api/agent/enrol', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ AgentId: a.ID, Key: key }) });
  return { agentId: a.ID, server: linkUrl, credential: Credential, machineId: `bench-${a.ID}` };
}

/** Starts one trace at 1 s on the agent: its session ID. */
export async function newTrace(url, cookie, agentId) {
  return (await call(url, cookie, `/cmd/newtarget?target=${target}&traceInterval=1&agentID=${agentId}`)).ID;
}

/** CPU time (user + system, s) of a process. */
export const cpuOf = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};
/** The part of cpuOf spent in the kernel (system time). */
export const systemCpuOf = (pid) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[12]) / 100;
export const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

/** The host's load: this machine may be shared, and every figure depends on it. */
export const load = () => {
  let pressure = '';
  try {
    pressure = `, CPU pressure ${/some avg10=([\d.]+)/.exec(readFileSync('/proc/pressure/cpu', 'utf8'))[1]} %`;
  } catch {}
  return `load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}${pressure}`;
};

/** The server's event-loop delay since the previous scrape (prom-client resets it) and its committed hop samples. */
export async function serverMetrics(url, token) {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
  const v = (name) => Number(new RegExp(`^hopwatch_nodejs_eventloop_lag_${name}_seconds (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  const committed = Number(/^hopwatch_ingest_samples_total (\S+)$/m.exec(text)?.[1] ?? NaN);
  // DuckDB's own memory and spill (absent on PostgreSQL): NaN when not there.
  const gauge = (name) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { p50: v('p50'), p99: v('p99'), max: v('max'), committed, storeMemory: gauge('hopwatch_store_memory_bytes'), storeSpilled: gauge('hopwatch_store_spilled_bytes'), storeLimit: gauge('hopwatch_store_memory_limit_bytes') };
}

/** The value at quantile p of an ascending array. */
export const quantile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/**
 * Forks a bench child (bench/agents-child.mjs) running these agents' AgentPrograms; resolves
 * once all have started (connecting). `engine`: 'synthetic' or 'simulated'. BENCH_CHILD_NODE_FLAGS:
 * node flags of the children.
 */
export function agentChild(creds, { work, engine }) {
  const execArgv = (process.env.BENCH_CHILD_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = fork(new URL('./agents-child.mjs', import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => (m.t === 'started' ? resolve(child) : reject(new Error(`child: ${JSON.stringify(m)}`))));
    child.once('exit', (code) => reject(new Error(`bench child exited (${code}) before its agents started`)));
    child.send({ t: 'start', creds, work, scenario, engine });
  });
}

/** Asks a bench child for something and resolves with its answer. */
export const ask = (child, t) =>
  new Promise((resolve) => {
    child.once('message', resolve);
    child.send({ t });
  });
/** A child's rounds, probes and event-loop delay since 'measure'. */
export const childReport = (child) => ask(child, 'report');
/** A child's agents: when each last connected (ms since the epoch; 0: never). */
export const childLinks = async (child) => (await ask(child, 'links')).links;

/** Stops a bench child's programs and waits for it to exit. */
export function stopChild(child) {
  const exited = new Promise((r) => child.once('exit', r));
  child.send({ t: 'stop' });
  return exited;
}
