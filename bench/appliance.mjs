// The built appliance (dist/server/main.js) for a bench: started in its own data directory on
// a loopback port, waited for, signed in to, and the server process's own figures read from
// /proc and /metrics. Shared by bench:hub, bench:agents and bench:soak.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts dist/server/main.js with the server's node flags and `nodeFlags`; `env` beside the
 * loopback port, the data directory and the root password ('bench'). Resolves once /readyz answers.
 */
export async function startAppliance({ port, dataDir, env = {}, nodeFlags = [], stdio = ['ignore', 'ignore', 'inherit'] }) {
  const { serverNodeFlags } = await import('./server-flags.mjs');
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [...serverNodeFlags, ...nodeFlags, 'dist/server/main.js'], {
    env: { ...process.env, HOPWATCH_PORT: String(port), HOPWATCH_HOST: '127.0.0.1', HOPWATCH_DATA_DIR: dataDir, HOPWATCH_ROOT_PASSWORD: 'bench', HOPWATCH_LOG_LEVEL: 'warn', ...env },
    stdio,
  });
  const exited = new Promise((r) => server.once('exit', r));
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {}
    if (i > 600 || server.exitCode !== null) throw new Error('server did not start');
    await sleep(100);
  }
  return {
    url,
    server,
    async stop() {
      if (server.exitCode === null) server.kill('SIGTERM');
      await exited;
    },
  };
}

/** Signs in as admin (password 'bench'): the session cookie. */
export async function signIn(url) {
  const login = await fetch(`${url}/api/Account/Login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Username: 'admin', Password: 'bench', RememberMe: false }),
  });
  if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
  return login.headers.getSetCookie()[0].split(';')[0];
}

/** A process's user + system CPU seconds (USER_HZ 100). */
export function cpuSeconds(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

/** A process's resident memory, MB. */
export const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

/** A process's open file descriptors (sockets, files, pipes, eventfds: every entry of /proc/PID/fd). */
export const openFds = (pid) => readdirSync(`/proc/${pid}/fd`).length;

/** The host's load: this machine may be shared, and every figure depends on it. */
export function hostLoad() {
  let pressure = '';
  try {
    pressure = `, CPU pressure ${/some avg10=([\d.]+)/.exec(readFileSync('/proc/pressure/cpu', 'utf8'))[1]} %`;
  } catch {}
  return `load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}${pressure}`;
}

/**
 * The server's event-loop delay since the previous scrape (prom-client's histogram, reset at
 * every scrape; ms) and the samples ingest has committed since start. Needs HOPWATCH_METRICS_TOKEN.
 */
export async function serverLoop(url, metricsToken) {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
  const v = (name) => Number(new RegExp(`^hopwatch_nodejs_eventloop_lag_${name}_seconds (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  const committed = Number(/^hopwatch_ingest_samples_total (\S+)$/m.exec(text)?.[1] ?? NaN);
  return { p50: v('p50'), p99: v('p99'), max: v('max'), committed };
}
