// Issue 45 item 7: an appliance past what it can serve answers every signed-in request, with
// its data or with 503, Retry-After and {"Error": ...}, and never leaves one waiting; the
// refusals are counted on /metrics. HOPWATCH_READ_QUEUE=1 makes a burst overload it at once.
import { afterEach, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { seedSessions } from './seed-sessions.js';

let hw: Appliance | undefined;
afterEach(async () => {
  await hw?.dispose();
  hw = undefined;
});

const metricsToken = 'overload-test-metrics-token';

async function refusedOnMetrics(a: Appliance): Promise<number> {
  const text = await (await fetch(`${a.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
  return Number(/^hopwatch_store_reads_refused_total (\d+)/m.exec(text)?.[1]);
}

describe('overload', () => {
  it('answers every request of a burst: its data, or 503 with Retry-After and an Error; counted on /metrics; then serves again', async () => {
    const first = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'overload-root-pw', HOPWATCH_READ_QUEUE: '1', HOPWATCH_METRICS_TOKEN: metricsToken } });
    hw = first;
    await first.stop();
    const [target] = await seedSessions(first.dataDir, [{ target: '127.0.0.1', state: 1 }]);
    hw = await first.restart();
    const cookie = await signIn(hw.url, 'admin', 'overload-root-pw');
    // An open target window's read: several store reads a request (its session, hosts, rows, details).
    const url = `${hw.url}/api/data/TraceGraphRows?listType=Target&uniqueID=${target.id}&requests%5B0%5D.ID=${target.id}`;
    const answers = await Promise.all(
      Array.from({ length: 200 }, async () => {
        const r = await fetch(url, { headers: { cookie } });
        return { status: r.status, retryAfter: r.headers.get('retry-after'), body: (await r.json()) as { Error?: string } };
      }),
    );
    expect(answers.filter((a) => a.status !== 200 && a.status !== 503)).toEqual([]);
    const refused = answers.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.retryAfter).toBe('5');
      expect(r.body.Error).toMatch(/too busy/);
    }
    // Every refused request had at least one of its reads refused.
    expect(await refusedOnMetrics(hw)).toBeGreaterThanOrEqual(refused.length);
    expect((await fetch(url, { headers: { cookie } })).status).toBe(200);
  });
});
