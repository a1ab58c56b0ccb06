// The server's node flags and glibc settings (server/node-flags.ts) for benchmarks: the server
// processes they start get them (the settings under this process's environment, so a run can try
// others), and one that runs the server's code in its own process runs again under them when it
// was started without (V8 sizes its heap and glibc reads its settings at start), so that
// `node bench/x.mjs` measures the code as the server runs it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const { ServerMallocEnv, ServerNodeFlags } = await import(new URL('../dist/server/node-flags.js', import.meta.url).href);
export const serverNodeFlags = ServerNodeFlags;
/** The environment for a server process: glibc's settings, then this process's environment over them. */
export const serverEnv = { ...ServerMallocEnv, ...process.env };

/** Runs the script at `scriptUrl` again under the server's flags unless this process has them; returns when it has. */
export function underServerFlags(scriptUrl) {
  if (ServerNodeFlags.every((f) => process.execArgv.includes(f)) && Object.keys(ServerMallocEnv).every((name) => name in process.env)) return;
  const r = spawnSync(process.execPath, [...process.execArgv, ...ServerNodeFlags, fileURLToPath(scriptUrl), ...process.argv.slice(2)], { stdio: 'inherit', env: serverEnv });
  process.exit(r.status ?? 1);
}
