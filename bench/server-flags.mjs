// The server's node flags (server/node-flags.ts) for benchmarks: the server processes they
// start get them, and one that runs the server's code in its own process runs again under
// them when it was started without (V8 sizes its heap at start), so that `node bench/x.mjs`
// measures the code as the server runs it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const { ServerNodeFlags } = await import(new URL('../dist/server/node-flags.js', import.meta.url).href);
export const serverNodeFlags = ServerNodeFlags;

/** Runs the script at `scriptUrl` again under the server's flags unless this process has them; returns when it has. */
export function underServerFlags(scriptUrl) {
  if (ServerNodeFlags.every((f) => process.execArgv.includes(f))) return;
  const r = spawnSync(process.execPath, [...process.execArgv, ...ServerNodeFlags, fileURLToPath(scriptUrl), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
