// The built appliance (dist/server/main.js) for a bench: started in its own data directory on
// a loopback port, waited for, signed in to, and the server process's own figures read from
// /proc and /metrics. Shared by bench:hub and bench:soak (bench:agents and bench:cluster start theirs by bench/fleet.mjs).
import { spawn } from 'node:child_process';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts dist/server/main.js with the server's node flags and glibc settings and `nodeFlags`; `env` beside the
 * loopback port, the data directory and the root password ('bench'). Resolves once /readyz answers.
 */
export async function startAppliance({ port, dataDir, env = {}, nodeFlags = [], stdio = ['ignore', 'ignore', 'inherit'] }) {
  const { serverNodeFlags, serverEnv } = await import('./server-flags.mjs');
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [...serverNodeFlags, ...nodeFlags, 'dist/server/main.js'], {
    env: { ...serverEnv, HOPWATCH_PORT: String(port), HOPWATCH_HOST: '127.0.0.1', HOPWATCH_DATA_DIR: dataDir, HOPWATCH_ROOT_PASSWORD: 'bench', HOPWATCH_LOG_LEVEL: 'warn', ...env },
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

// The /proc and /metrics readings and the sign-in are bench/fleet.mjs's (one copy for every bench).
export { signIn, rssMb, cpuOf as cpuSeconds, load as hostLoad, serverMetrics as serverLoop } from './fleet.mjs';
