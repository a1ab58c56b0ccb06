// Every launcher of the server passes the server's node flags (node-flags.ts), and node takes them.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ServerNodeFlags } from './node-flags.js';

const root = new URL('../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
const launch = `node ${ServerNodeFlags.join(' ')} dist/server/main.js`;

describe("the server's node flags", () => {
  it('are on the server lines of package.json (npm start, npm run serve)', () => {
    const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
    expect(scripts.start).toContain(launch);
    expect(scripts.serve).toContain(launch);
  });

  it("are on the image's server line (container/entrypoint.sh)", () => {
    const lines = read('container/entrypoint.sh').split('\n').filter((l) => l.includes('dist/server/main.js'));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toContain(launch);
  });

  it('are taken by node (a misspelt one stops it: "bad option")', () => {
    const r = spawnSync(process.execPath, [...ServerNodeFlags, '-e', 'process.exit(0)'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
