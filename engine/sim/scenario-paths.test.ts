import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadScenarioPaths } from './scenario.js';

const examples = new URL('../../test/sim/scenarios/', import.meta.url).pathname;

describe('loadScenarioPaths', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('reads files, and the scenario files of a folder in name order, skipping other files', () => {
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-scenarios-'));
    copyFileSync(join(examples, 'route-change.yaml'), join(dir, 'b.yaml'));
    copyFileSync(join(examples, 'icmp-firewall.yaml'), join(dir, 'a.yml'));
    writeFileSync(join(dir, 'notes.txt'), 'not a scenario');
    const names = (paths: string[]) => loadScenarioPaths(paths).map((s) => s.name);
    const inFolder = names([dir]);
    expect(new Set(inFolder).size).toBe(2);
    expect(inFolder).toEqual([names([join(dir, 'a.yml')])[0], names([join(dir, 'b.yaml')])[0]]);
    expect(names([join(examples, 'silent-target.yaml'), dir])).toHaveLength(3);
  });

  it('answers for loopback alone without scenario files', () => {
    expect(loadScenarioPaths([])).toEqual([{ name: 'loopback', hops: [], target: { v4: '127.0.0.1', v6: '::1', rttMs: 0.05 } }]);
  });
});
