// A replica on PostgreSQL keeps nothing in its data directory that ingest needs (issue 43,
// docs/scale.md "What a replica keeps"): the directory is scratch (temporary files, the agent
// bundles it packed), often a small emptyDir or tmpfs. So a full scratch volume must not pause
// ingest as a full DuckDB volume does (server/store/volume-watch.ts): the samples go to
// PostgreSQL, whose disk is the database server's. The data directory here is a 1 MiB tmpfs
// filled to 99%; the appliance traces on the simulated engine and its rounds must be stored.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { postgresInstalled, startPostgres, type ThrowawayPostgres } from '../support/postgres.js';

const root = process.getuid?.() === 0;
const rootPassword = 'scratch-full-root-pw';

let pg: ThrowawayPostgres | undefined;
let hw: Appliance | undefined;
let mount = '';
let cookie = '';

describe.skipIf(!root || !postgresInstalled())('a replica on PostgreSQL with a full data directory', () => {
  beforeAll(async () => {
    pg = await startPostgres();
    mount = mkdtempSync(join(tmpdir(), 'hopwatch-scratch-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,mode=0700', 'tmpfs', mount]);
    // 99% full: past the 98% at which a DuckDB appliance pauses ingest.
    const s = statfsSync(mount);
    writeFileSync(join(mount, 'filler'), Buffer.alloc(Math.floor(s.blocks * s.bsize * 0.99)));
    const after = statfsSync(mount);
    expect(1 - after.bavail / after.blocks).toBeGreaterThan(0.98);
    hw = await startAppliance({ dataDir: mount, env: { HOPWATCH_DATABASE_URL: pg.url, HOPWATCH_ENGINE: 'simulated', HOPWATCH_ROOT_PASSWORD: rootPassword } });
    cookie = await signIn(hw.url, 'admin', rootPassword);
  }, 120_000);

  afterAll(async () => {
    await hw?.stop();
    if (mount) {
      execFileSync('umount', [mount]);
      rmSync(mount, { recursive: true, force: true });
    }
    pg?.stop();
  });

  it('stores the rounds it measures: the scratch volume does not pause ingest', async () => {
    const get = async <T>(path: string): Promise<T> => {
      const r = await fetch(`${hw!.url}${path}`, { headers: { cookie } });
      expect(r.status, `${path}: ${await r.clone().text()}`).toBe(200);
      return (await r.json()) as T;
    };
    const { ID } = await get<{ ID: number }>('/cmd/newtarget?target=127.0.0.1&traceInterval=0.5');
    let stored = 0;
    for (let i = 0; i < 120 && stored < 4; i++) {
      await new Promise((ok) => setTimeout(ok, 250));
      stored = (await get<{ SessionID: number; SampleCount: number }[]>('/api/Sessions')).find((s) => s.SessionID === ID)?.SampleCount ?? 0;
    }
    expect(stored, hw!.output().slice(-3000)).toBeGreaterThanOrEqual(4);
    expect(hw!.output()).not.toContain('ingest paused');
  }, 60_000);
});
