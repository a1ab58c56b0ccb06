// Every launcher of the server passes the server's node flags and glibc settings (node-flags.ts),
// and node and glibc take them.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ServerMallocEnv, ServerNodeFlags } from './node-flags.js';

const root = new URL('../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
const mallocEnv = Object.entries(ServerMallocEnv).map(([name, value]) => `${name}=${value}`);
const launch = `${mallocEnv.join(' ')} node ${ServerNodeFlags.join(' ')} dist/server/main.js`;

// How much glibc's main heap grows for a block of 8 MiB allocated after one of that size was
// freed. With glibc's sliding threshold the freed block raised it, so the second comes from the
// heap (+8 MiB); with the server's fixed threshold it is mapped on its own (+0).
const heapGrowthScript = `
const fs = require('node:fs');
const heap = () => {
  const line = fs.readFileSync('/proc/self/maps', 'utf8').split('\\n').find((l) => l.endsWith('[heap]'));
  const [from, to] = line.split(' ')[0].split('-').map((h) => parseInt(h, 16));
  return to - from;
};
(async () => {
  let block = Buffer.allocUnsafeSlow(8 << 20);
  block.fill(1);
  block = null;
  for (let i = 0; i < 3; i++) { gc(); await new Promise((r) => setTimeout(r, 10)); }
  const before = heap();
  const kept = Buffer.allocUnsafeSlow(8 << 20);
  kept.fill(1);
  console.log(Math.round((heap() - before) / (1 << 20)));
})();
`;

function heapGrowthMiB(env: Record<string, string | undefined>): number {
  const r = spawnSync(process.execPath, [...ServerNodeFlags, '--expose-gc', '-e', heapGrowthScript], { encoding: 'utf8', env });
  expect(r.stderr).toBe('');
  return Number(r.stdout.trim());
}

describe("the server's node flags and glibc settings", () => {
  it('are on the server lines of package.json (npm start, npm run serve)', () => {
    const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
    expect(scripts.start).toContain(`&& ${launch}`);
    expect(scripts.serve).toContain(`&& ${launch}`);
  });

  it("are on the image's server line (container/entrypoint.sh)", () => {
    const lines = read('container/entrypoint.sh').split('\n').filter((l) => l.includes('dist/server/main.js'));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toContain(`exec env ${launch}`);
  });

  it('are taken by node (a misspelt flag stops it: "bad option")', () => {
    const r = spawnSync(process.execPath, [...ServerNodeFlags, '-e', 'process.exit(0)'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('are taken by glibc (a misspelt variable is ignored silently: a large block after a freed one would come from the heap)', () => {
    const without = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('MALLOC_') && name !== 'GLIBC_TUNABLES'));
    expect(heapGrowthMiB(without)).toBe(8);
    expect(heapGrowthMiB({ ...without, ...ServerMallocEnv })).toBe(0);
  });
});
