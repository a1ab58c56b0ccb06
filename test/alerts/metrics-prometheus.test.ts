// GET /metrics scraped by Debian's prometheus (issue 22, Tests): with the bearer token the
// scrape is up and the query API returns the target's loss; without it (or with a wrong one)
// the endpoint refuses, and with HOPWATCH_METRICS_TOKEN unset it does not exist.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { engineEnv } from '../support/trace-network.js';
import { waitFor } from './support.js';

const Prometheus = '/usr/bin/prometheus';
const Token = 'scrape-token-1234';

describe.skipIf(!existsSync(Prometheus))('Prometheus scrapes /metrics (needs Debian prometheus: apt install prometheus, test/setup.sh)', () => {
  let hw: Appliance;
  let prom: ChildProcess | undefined;
  let dir: string;
  let promUrl: string;
  let target: number;

  beforeAll(async () => {
    hw = await startAppliance({ env: { ...engineEnv(), HOPWATCH_ROOT_PASSWORD: 'metrics-root-pw', HOPWATCH_METRICS_TOKEN: Token } });
    const cookie = await signIn(hw.url, 'admin', 'metrics-root-pw');
    const started = await (await fetch(`${hw.url}/cmd/newtarget?target=127.0.0.1&traceInterval=0.5`, { headers: { cookie } })).json();
    target = started.ID;
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-prom-'));
    writeFileSync(join(dir, 'token'), Token);
    const host = new URL(hw.url).host;
    writeFileSync(
      join(dir, 'prometheus.yml'),
      `global: { scrape_interval: 1s, evaluation_interval: 1s }
scrape_configs:
  - job_name: hopwatch
    authorization: { type: Bearer, credentials_file: ${join(dir, 'token')} }
    static_configs: [{ targets: ['${host}'] }]
  - job_name: hopwatch-without-token
    static_configs: [{ targets: ['${host}'] }]
`,
    );
    const port = await freePort();
    promUrl = `http://127.0.0.1:${port}`;
    prom = spawn(Prometheus, [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`], { stdio: 'ignore' });
  });
  afterAll(async () => {
    if (prom && prom.exitCode === null) {
      prom.kill('SIGTERM');
      await new Promise((ok) => prom!.once('exit', ok));
    }
    await hw?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const query = async (q: string) => {
    const r = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(q)}`).catch(() => undefined);
    if (!r || r.status !== 200) return undefined;
    const body = (await r.json()) as { data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
    return body.data.result;
  };

  it('the query API returns the target loss; the scrape without the token is refused', async () => {
    const loss = await waitFor('the target loss in Prometheus', async () => {
      const r = await query(`hopwatch_target_loss_percent{target_id="${target}"}`);
      return r?.length ? r : undefined;
    }, 90_000);
    expect(loss[0].metric).toMatchObject({ job: 'hopwatch', target: '127.0.0.1', agent: 'Local Machine', configuration: 'Default' });
    expect(Number(loss[0].value[1])).toBe(0);
    const up = await waitFor('both scrapes', async () => {
      const r = await query('up');
      return r && r.length === 2 ? r : undefined;
    });
    expect(up!.find((r) => r.metric.job === 'hopwatch')!.value[1]).toBe('1');
    expect(up!.find((r) => r.metric.job === 'hopwatch-without-token')!.value[1]).toBe('0');
    const avg = await query(`hopwatch_target_latency_avg_ms{target_id="${target}"}`);
    expect(Number(avg![0].value[1])).toBeGreaterThanOrEqual(0);
    expect((await query('hopwatch_agents_online'))![0].value[1]).toBe('1');
  });

  it('refuses a scrape without the token or with a wrong one', async () => {
    expect((await fetch(`${hw.url}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${hw.url}/metrics`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).Error).toMatch(/HOPWATCH_METRICS_TOKEN/);
    const right = await fetch(`${hw.url}/metrics`, { headers: { authorization: `Bearer ${Token}` } });
    expect(right.status).toBe(200);
    const text = await right.text();
    expect(text).toContain('hopwatch_process_cpu_seconds_total');
    expect(text).toContain('hopwatch_ingest_samples_total');
  });
});

describe('/metrics without HOPWATCH_METRICS_TOKEN', () => {
  it('does not exist', async () => {
    const hw = await startAppliance({ env: { ...engineEnv(), HOPWATCH_ROOT_PASSWORD: 'metrics-root-pw' } });
    try {
      const r = await fetch(`${hw.url}/metrics`, { headers: { authorization: 'Bearer anything' } });
      expect(r.status).toBe(404);
      expect((await r.json()).Error).toMatch(/Metrics are off/);
    } finally {
      await hw.dispose();
    }
  });
});
