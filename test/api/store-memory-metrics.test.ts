// DuckDB's memory on GET /metrics (issue 45 item 7, docs/store.md "DuckDB's memory"): the
// appliance opens its store with HOPWATCH_STORE_MEMORY_MB as DuckDB's limit and reports what
// DuckDB holds against it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppliance, type Appliance } from '../support/appliance.js';

const MetricsToken = 'store-memory-metrics-token';
let hw: Appliance;

beforeAll(async () => {
  hw = await startAppliance({ env: { HOPWATCH_METRICS_TOKEN: MetricsToken, HOPWATCH_STORE_MEMORY_MB: '200' } });
}, 120_000);
afterAll(async () => {
  await hw?.dispose();
});

const gauge = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);

describe("DuckDB's memory on /metrics", () => {
  it('reports the limit HOPWATCH_STORE_MEMORY_MB set, what DuckDB holds under it and what it spilled', async () => {
    const r = await fetch(`${hw.url}/metrics`, { headers: { authorization: `Bearer ${MetricsToken}` } });
    expect(r.status).toBe(200);
    const text = await r.text();
    expect(gauge(text, 'hopwatch_store_memory_limit_bytes')).toBe(200 * 1024 * 1024);
    const used = gauge(text, 'hopwatch_store_memory_bytes');
    expect(used).toBeGreaterThan(0); // the migrated tables' blocks at least
    expect(used).toBeLessThanOrEqual(200 * 1024 * 1024);
    expect(gauge(text, 'hopwatch_store_spilled_bytes')).toBe(0);
  });
});
