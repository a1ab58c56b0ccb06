// The Insights calls end to end on a running appliance: scenarios seeded through the ingest
// pipeline, GetWisdomDefaultTimeRange, RunTargetWisdomTests (verdicts, details, progress
// events on the hub), AddFeedback (validation, storage, rate limit), the per-test pages,
// and the edition switch (HOPWATCH_INSIGHTS).
import { fileURLToPath } from 'node:url';
import { HttpTransportType, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WisdomResult, WisdomTimeRange } from '../../server/contract/insights.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { Store } from '../support/built.js';
import { ModelStart, readScenario } from './model.js';
import { seedScenario } from './seed-scenario.js';
import { judge } from './verdict.js';

const scenario = (name: string) => readScenario(fileURLToPath(new URL(`./scenarios/${name}.yaml`, import.meta.url)));
const loss = scenario('loss-from-link-3');
const clean = scenario('clean-path');
const simScenario = fileURLToPath(new URL('../sim/scenarios/lossy-silent.yaml', import.meta.url));
const env = { HOPWATCH_ROOT_PASSWORD: 'insights-pw1', HOPWATCH_INSIGHTS: '1', HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: simScenario };

describe('Insights calls', () => {
  let hw: Appliance;
  let cookie: string;
  let lossId: number;
  let cleanId: number;

  const get = async (path: string) => {
    const r = await fetch(`${hw.url}${path}`, { headers: { cookie } });
    return { status: r.status, body: (await r.json()) as unknown };
  };

  beforeAll(async () => {
    const first = await startAppliance({ env });
    await first.stop();
    lossId = await seedScenario(first.dataDir, loss, 1);
    cleanId = await seedScenario(first.dataDir, clean, 2);
    hw = await startAppliance({ dataDir: first.dataDir, port: first.port, env });
    cookie = await signIn(hw.url, 'admin', env.HOPWATCH_ROOT_PASSWORD);
  }, 180_000);

  afterAll(async () => {
    await hw?.dispose();
  });

  it('GetWisdomDefaultTimeRange: the last periodMinutes of data, capped by the first sample', async () => {
    const r = await get(`/api/data/GetWisdomDefaultTimeRange?id=${lossId}&periodMinutes=720`);
    expect(r.status).toBe(200);
    const range = r.body as WisdomTimeRange;
    expect(Date.parse(range.Start)).toBeGreaterThanOrEqual(ModelStart);
    expect(Date.parse(range.End) - Date.parse(range.Start)).toBeLessThanOrEqual(720 * 60_000);
    expect(Date.parse(range.End)).toBeGreaterThan(ModelStart + 59 * 60_000);
    const short = (await get(`/api/data/GetWisdomDefaultTimeRange?id=${lossId}&periodMinutes=10`)).body as WisdomTimeRange;
    expect(Date.parse(short.End) - Date.parse(short.Start)).toBe(10 * 60_000);
    expect((await get(`/api/data/GetWisdomDefaultTimeRange?id=${lossId}`)).status).toBe(400);
    expect((await get(`/api/data/GetWisdomDefaultTimeRange?id=999999&periodMinutes=720`)).status).toBe(404);
  });

  it('RunTargetWisdomTests names hop 3 for loss from link 3, with details and progress on the hub', async () => {
    const hub = new HubConnectionBuilder().withUrl(`${hw.url}/mainHub`, { transport: HttpTransportType.WebSockets, headers: { cookie } }).configureLogging(LogLevel.None).build();
    const titles: string[] = [];
    hub.on('WisdomTestProgressUpdated', (p: { TestTitle: string }) => titles.push(p.TestTitle));
    await hub.start();
    await hub.invoke('RegisterForWisdom', String(lossId));
    try {
      const range = (await get(`/api/data/GetWisdomDefaultTimeRange?id=${lossId}&periodMinutes=720`)).body as WisdomTimeRange;
      const r = await get(`/api/data/RunTargetWisdomTests?id=${lossId}&startTime=${range.Start}&endTime=${range.End}&includeDetails=true`);
      expect(r.status).toBe(200);
      const result = r.body as WisdomResult;
      const verdict = judge(result.Results, loss.expect);
      expect(verdict.problems).toEqual([]);
      const lossResult = result.Results.find((x) => x.TestID === 200)!;
      expect(lossResult.Description[0]).toMatch(/^Packet loss begins at intermediate hop #3 \(10\.251\.90\.3\) with an average of \d+\.\d% lost packets\.$/);
      expect(lossResult.Description).toContain('Traceroute packets are returned from 5 of 5 intermediate hops.');
      expect(lossResult.ReadMoreUrl).toBe('/docs/insights/wan-sustained-packet-loss.md');
      const detail = lossResult.HopDetails.find((d) => d.HopNumber === 3)!;
      expect(detail.BoxPlotChart.Data.length).toBeGreaterThan(0);
      expect(detail.BoxPlotChart.Data.length).toBeLessThanOrEqual(50);
      expect(detail.WisdomCharts.map((c) => c.Title)).toEqual(['Kurtosis and skewness', 'Deviation', 'Latency and loss']);
      const row = detail.BoxPlotChart.Data[0];
      expect(row.Q1!).toBeLessThanOrEqual(row.Median!);
      expect(row.Median!).toBeLessThanOrEqual(row.Q3!);
      // Progress arrives as the tests run (the hub delivers before the answer or just after).
      await expect.poll(() => titles.length, { timeout: 5000 }).toBeGreaterThanOrEqual(5);
      expect(titles).toContain('Sustained packet loss');
      // Only the wanted tests (and the data checks) run with testIds.
      const only = (await get(`/api/data/RunTargetWisdomTests?id=${lossId}&startTime=${range.Start}&endTime=${range.End}&includeDetails=false&testIds=200`)).body as WisdomResult;
      expect(only.Results.map((x) => x.TestID)).toEqual([1, 2, 200]);
      expect(only.Results[2].HopDetails).toEqual([]);
    } finally {
      await hub.stop();
    }
  });

  it('a clean path raises no Potential Issue', async () => {
    const range = (await get(`/api/data/GetWisdomDefaultTimeRange?id=${cleanId}&periodMinutes=720`)).body as WisdomTimeRange;
    const result = (await get(`/api/data/RunTargetWisdomTests?id=${cleanId}&startTime=${range.Start}&endTime=${range.End}&includeDetails=false`)).body as WisdomResult;
    expect(judge(result.Results, clean.expect).problems).toEqual([]);
    expect(result.Results.at(-1)!.ResultEnum).toBe(4); // NoInsightsIdentified
  });

  it('too short a range does not run and says why', async () => {
    const start = new Date(ModelStart).toISOString();
    const end = new Date(ModelStart + 5 * 60_000).toISOString();
    const result = (await get(`/api/data/RunTargetWisdomTests?id=${lossId}&startTime=${start}&endTime=${end}&includeDetails=false`)).body as WisdomResult;
    expect(result.Results.map((x) => [x.TestID, x.ResultEnum])).toEqual([[1, 3]]); // the first failing data check ends the run (issue 41 item 5: no reason twice)
    expect(result.Results[0].Description[0]).toMatch(/Insights needs at least 10\.0 minutes/);
  });

  it('runs on an open target from the ingest memory (a few seconds: too little data, with the reasons)', async () => {
    // The simulated engine traces the lossy-silent scenario's target; nothing is sent.
    const started = (await get('/cmd/newtarget?target=10.251.111.34&traceInterval=0.1')).body as { ID: number };
    expect(started.ID).toBeGreaterThan(0);
    try {
      await expect.poll(async () => (await get(`/api/data/GetWisdomDefaultTimeRange?id=${started.ID}&periodMinutes=720`)).status, { timeout: 15_000 }).toBe(200);
      await new Promise((r) => setTimeout(r, 2000));
      const range = (await get(`/api/data/GetWisdomDefaultTimeRange?id=${started.ID}&periodMinutes=720`)).body as WisdomTimeRange;
      expect(Date.parse(range.End) - Date.parse(range.Start)).toBeLessThan(10 * 60_000);
      const r = await get(`/api/data/RunTargetWisdomTests?id=${started.ID}&startTime=${range.Start}&endTime=${range.End}&includeDetails=true`);
      expect(r.status).toBe(200);
      const result = r.body as WisdomResult;
      expect(result.Results.map((x) => [x.TestID, x.ResultEnum])).toEqual([[1, 3]]); // the first failing data check ends the run (issue 41 item 5: no reason twice)
      const probes = result.TestedSegment.Stats.find((x) => x.Key === 'ProbeCount')!.Value as number;
      expect(probes).toBeGreaterThan(20); // the open session's recent samples were read (ingest memory and store)
    } finally {
      await fetch(`${hw.url}/cmd/close?ID=${started.ID}`, { headers: { cookie } }); // 204, no body
    }
  });

  it('RunTargetWisdomTests refuses bad input', async () => {
    const q = `id=${lossId}&startTime=${new Date(ModelStart).toISOString()}`;
    expect((await get(`/api/data/RunTargetWisdomTests?${q}&endTime=${new Date(ModelStart).toISOString()}&includeDetails=false`)).status).toBe(400);
    expect((await get(`/api/data/RunTargetWisdomTests?${q}&endTime=nonsense&includeDetails=false`)).status).toBe(400);
    expect((await get(`/api/data/RunTargetWisdomTests?${q}&endTime=${new Date(ModelStart + 60_000).toISOString()}`)).status).toBe(400);
    const r = await get(`/api/data/RunTargetWisdomTests?${q}&endTime=${new Date(ModelStart + 60_000).toISOString()}&includeDetails=false&testIds=7;drop`);
    expect(r.status).toBe(400);
    expect(r.body).toHaveProperty('Error');
  });

  it('AddFeedback stores a rated feedback, refuses one without a rating, and is rate limited', async () => {
    const post = (body: unknown) =>
      fetch(`${hw.url}/api/data/AddFeedback`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const context = JSON.stringify({ TestID: 200, TestTitle: 'Sustained packet loss', Insight: '<script>x</script>' });
    const ok = await post({ SessionId: String(lossId), Rating: 5, Comments: 'Spot on', HelpRequested: false, ContextJson: context });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { Id: number }).Id).toBeGreaterThan(0);
    expect((await post({ SessionId: String(lossId), Comments: 'no rating' })).status).toBe(400);
    expect((await post({ Rating: 7 })).status).toBe(400);
    expect((await post({ Rating: 0 })).status).toBe(400);
    expect((await post({ SessionId: '999999', Rating: 3 })).status).toBe(404);
    let last = 0;
    for (let i = 0; i < 12; i++) last = (await post({ Rating: 3 })).status;
    expect(last).toBe(429);
  });

  it('serves the per-test pages the results link to', async () => {
    const r = await fetch(`${hw.url}/docs/insights/wan-sustained-packet-loss.md`);
    expect(r.status).toBe(200);
    // A page in the console's look, not the Markdown source (issue 41 item 11).
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await r.text();
    expect(html).toContain('<h1>Sustained packet loss</h1>');
    expect(html).not.toMatch(/^# /m);
    expect((await fetch(`${hw.url}/docs/insights/..%2Fsecurity.md`)).status).toBe(400);
    expect((await fetch(`${hw.url}/docs/insights/nope.md`)).status).toBe(404);
  });

  it('stores the feedback with its context (migration 10)', async () => {
    await hw.stop();
    const store = await Store.open(hw.dataDir);
    try {
      const rows = await store.all<{ rating: number; comments: string }>('SELECT rating, comments FROM insight_feedback ORDER BY id');
      expect(rows[0]).toEqual({ rating: 5, comments: 'Spot on' });
    } finally {
      await store.close();
    }
    hw = await hw.restart();
  });
});

describe('Insights edition switch', () => {
  it('a self-hosted appliance answers 403 to RunTargetWisdomTests until Insights are switched on, and says so in /api/app/config', async () => {
    const first = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'insights-pw1', HOPWATCH_ENGINE: 'simulated' } });
    await first.stop();
    const id = await seedScenario(first.dataDir, clean, 3);
    const hw = await startAppliance({ dataDir: first.dataDir, port: first.port, env: { HOPWATCH_ROOT_PASSWORD: 'insights-pw1', HOPWATCH_ENGINE: 'simulated' } });
    try {
      const config = (await (await fetch(`${hw.url}/api/app/config`)).json()) as { InsightsEnabled: boolean };
      expect(config.InsightsEnabled).toBe(false);
      const cookie = await signIn(hw.url, 'admin', 'insights-pw1');
      const r = await fetch(`${hw.url}/api/data/RunTargetWisdomTests?id=${id}&startTime=${new Date(ModelStart).toISOString()}&endTime=${new Date(ModelStart + 3600_000).toISOString()}&includeDetails=false`, { headers: { cookie } });
      expect(r.status).toBe(403);
      expect(((await r.json()) as { Error: string }).Error).toMatch(/HOPWATCH_INSIGHTS=1/);
      // The stored Settings > General > Insights switch (where the settings editor writes it).
      await hw.stop();
      const store = await Store.open(hw.dataDir);
      await store.run(`INSERT OR REPLACE INTO storage_settings VALUES ('Insights', 'true', 0)`);
      await store.close();
      const on = await hw.restart();
      try {
        expect(((await (await fetch(`${on.url}/api/app/config`)).json()) as { InsightsEnabled: boolean }).InsightsEnabled).toBe(true);
        const cookie2 = await signIn(on.url, 'admin', 'insights-pw1');
        const ok = await fetch(`${on.url}/api/data/RunTargetWisdomTests?id=${id}&startTime=${new Date(ModelStart).toISOString()}&endTime=${new Date(ModelStart + 3600_000).toISOString()}&includeDetails=false`, { headers: { cookie: cookie2 } });
        expect(ok.status).toBe(200);
      } finally {
        await on.dispose();
      }
    } finally {
      await hw.dispose();
    }
  }, 180_000);
});
