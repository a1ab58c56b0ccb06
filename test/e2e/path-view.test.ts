// The Path view in Chromium (issue 44 proof): a summary of 10 agents tracing one service
// through 30 hops (about 330 nodes: their own routers, load-balanced hops, the last 3 routers
// shared; agent 3's hop 10 changes router 8 minutes ago), seeded through the real ingest into
// the appliance's store. The view is drawn (its draw time printed), hovered, clicked, its time
// strip drags a range (redrawn without a new layout) and its change mark opens the before/after
// comparison; the hub method answers what the REST call answers. Screenshots:
// test-results/path-view-*.png.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HttpTransportType } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { PathView } from '../../server/contract/path-view.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';
import { seedPathView, type PathViewSeed } from '../support/path-view-seed.js';
import { connectHub } from '../security/support.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'Path-view-pw-1';

describe('the Path view (Chromium)', () => {
  let app: Appliance;
  let browser: Browser;
  let seed: PathViewSeed;
  let cookie: string;
  const figures: string[] = [];

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    // Started once for its account, stopped, seeded, started again on the same store.
    const env = { HOPWATCH_ROOT_PASSWORD: password, HOPWATCH_ENGINE: 'simulated' };
    const first = await startAppliance({ env });
    await first.stop();
    const now = Date.now();
    seed = await seedPathView(first.dataDir, { agents: 10, hops: 30, from: now - 20 * 60_000, to: now, intervalMs: 10_000 });
    app = await startAppliance({ dataDir: first.dataDir, port: first.port, env });
    cookie = await signIn(app.url, 'admin', password);
    browser = await openBrowser({ width: 1600, height: 1000 });
  }, 180_000);

  afterAll(async () => {
    if (figures.length) console.log(`Path view in Chromium, measured:\n  ${figures.join('\n  ')}`);
    await browser?.close();
    await app?.dispose();
  });

  it('answers the same through the hub method as through the REST call', async () => {
    const start = seed.to - 10 * 60_000;
    const rest = (await (await fetch(`${app.url}/api/path/PathView?kind=Summary&id=${seed.summaryId}&start=${start}&end=${seed.to}`, { headers: { cookie } })).json()) as PathView;
    const hub = await connectHub(app, cookie, HttpTransportType.WebSockets);
    try {
      const viaHub = (await hub.connection.invoke('PathView', 'Summary', String(seed.summaryId), start, seed.to)) as PathView;
      expect(viaHub).toEqual(rest);
    } finally {
      await hub.connection.stop();
    }
    expect(rest.Nodes.length).toBeGreaterThan(300);
    expect(rest.RouteChanges).toEqual([
      { Time: new Date(seed.changeAt).toISOString(), SessionId: seed.sessionIds[2], AgentName: 'Site 3', TargetId: String(seed.sessionIds[2]), Hop: 10, Old: ['10.3.10.1', '10.3.10.2'], New: ['10.3.10.9'] },
    ]);
  });

  it('draws the 300-node case, hovers and clicks, follows the time strip, compares before and after', async () => {
    const page = browser.page;
    onTestFailed(async () => {
      await page.screenshot({ path: join(shots, 'path-view-failed.png') });
    });
    await signInWithForm(page, app.url, 'admin', password);
    await page.goto(`${app.url}/summary/${seed.summaryId}`);
    await page.getByRole('tab', { name: 'Path' }).click();
    const panel = page.getByTestId('path-panel');
    const graph = page.getByTestId('path-graph');
    await expect.poll(() => graph.locator('g.path-node').count(), { timeout: 30_000 }).toBeGreaterThan(300);
    const draws = () => page.evaluate(() => window.__hopwatchPathDraws ?? []);
    await expect.poll(async () => (await draws()).length, { timeout: 10_000 }).toBeGreaterThan(0);
    const first = (await draws())[0];
    expect(first.layoutRan).toBe(true);
    figures.push(`first draw of ${first.nodes} nodes (layout and paint): ${first.ms.toFixed(0)} ms, of which layout ${first.layoutMs.toFixed(0)} ms`);
    await page.screenshot({ path: join(shots, 'path-view-300.png'), fullPage: false });

    // The paths meet: the shared routers are one node each, crossed by all 10 agents.
    const shared = graph.locator('g.path-node[data-node="ip:10.250.28.1"]');
    await expect.poll(() => shared.count()).toBe(1);
    await shared.scrollIntoViewIfNeeded();
    await shared.hover();
    const tooltip = page.getByTestId('path-tooltip');
    await expect.poll(() => tooltip.textContent()).toContain('10.250.28.1');
    const text = (await tooltip.textContent()) ?? '';
    expect(text).toContain('Network: AS64999 TRANSIT');
    expect(text).toContain('Country: NL');
    for (let a = 1; a <= 10; a++) expect(text).toContain(`Site ${a} → service.example.test: hop 28`);
    await page.screenshot({ path: join(shots, 'path-view-hover.png') });

    // A load-balanced hop: two parallel branches between the same neighbours.
    for (const b of ['ip:10.1.5.1', 'ip:10.1.5.2']) {
      expect(await graph.locator(`path.path-edge[data-edge="ip:10.1.4.1>${b}"]`).count(), b).toBe(1);
      expect(await graph.locator(`path.path-edge[data-edge="${b}>ip:10.1.6.1"]`).count(), b).toBe(1);
    }

    // The strip: an interval per minute of the range, and the change mark at its minute.
    const strip = page.getByTestId('path-strip');
    expect(await strip.locator('rect.path-strip-loss').count()).toBeGreaterThanOrEqual(10);
    const mark = strip.getByTestId('path-change-mark');
    await expect.poll(() => mark.count()).toBe(1);
    expect(await mark.getAttribute('data-time')).toBe(new Date(seed.changeAt).toISOString());

    // Dragging across the strip selects a part of the range: redrawn in place, no new layout.
    const before = await graph.locator('g.path-node[data-node="ip:10.250.28.1"]').getAttribute('transform');
    await strip.scrollIntoViewIfNeeded();
    const box = (await strip.boundingBox())!;
    const drawsBefore = (await draws()).length;
    // The change was 8 of the 10 minutes ago (at 20% of the strip): select from 50% to 90%.
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.9, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => (await draws()).length, { timeout: 15_000 }).toBeGreaterThan(drawsBefore);
    await expect.poll(() => panel.getAttribute('data-state'), { timeout: 15_000 }).toBe('ready');
    const redraw = (await draws()).at(-1)!;
    expect(redraw.layoutRan).toBe(false);
    figures.push(`redraw after a range change (${redraw.nodes} nodes): ${redraw.ms.toFixed(0)} ms`);
    expect(await graph.locator('g.path-node[data-node="ip:10.250.28.1"]').getAttribute('transform')).toBe(before);
    // The narrower range starts after the change: no mark any more.
    await expect.poll(() => strip.getByTestId('path-change-mark').count(), { timeout: 15_000 }).toBe(0);

    // The whole range again (a fresh window): its change mark opens the comparison.
    await page.goto(`${app.url}/summary/${seed.summaryId}`);
    await page.getByRole('tab', { name: 'Path' }).click();
    await expect.poll(() => page.getByTestId('path-change-mark').count(), { timeout: 30_000 }).toBe(1);
    await page.getByTestId('path-change-mark').click();
    const compare = page.getByTestId('path-before-after');
    await expect.poll(() => compare.getByTestId('path-graph-after').locator('g.path-node').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await compare.textContent()).toContain('Site 3, hop 10: 10.3.10.1, 10.3.10.2 → 10.3.10.9');
    expect(await compare.locator('[data-testid="path-graph-before"] g.path-node.removed').evaluateAll((els) => els.map((e) => e.getAttribute('data-node')).sort())).toEqual([
      'ip:10.3.10.1',
      'ip:10.3.10.2',
    ]);
    expect(await compare.locator('[data-testid="path-graph-after"] g.path-node.added').evaluateAll((els) => els.map((e) => e.getAttribute('data-node')))).toEqual(['ip:10.3.10.9']);
    // Only agent 3's path is compared.
    expect(await compare.locator('[data-testid="path-graph-before"] g.path-node.kind-Agent').count()).toBe(1);
    await compare.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'path-view-before-after.png') });
    expect(await page.getByTestId('path-changes').locator('tbody tr').count()).toBe(1);
    // The list exports as CSV.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = await new Promise<string>((ok, fail) => download.createReadStream().then((s) => {
      let text = '';
      s.on('data', (d) => (text += d));
      s.on('end', () => ok(text));
      s.on('error', fail);
    }, fail));
    expect(csv.split('\r\n')[1]).toBe(`${new Date(seed.changeAt).toISOString()},Site 3,service.example.test,10,10.3.10.1 10.3.10.2,10.3.10.9`);

    // Group by AS: each site's routers one node; a click expands one into a box of its routers.
    await page.getByLabel('Group by AS').check();
    await expect.poll(() => graph.locator('g.path-node[data-node="as:64501"]').count()).toBe(1);
    expect(await graph.locator('g.path-node[data-node="ip:10.1.2.1"]').count()).toBe(0);
    await graph.locator('g.path-node[data-node="as:64501"]').click();
    await expect.poll(() => graph.locator('g.path-as-box[data-asn="64501"]').count()).toBe(1);
    expect(await graph.locator('g.path-node[data-node="ip:10.1.2.1"]').count()).toBe(1);
    await page.getByLabel('Group by AS').uncheck();

    // Hide an agent, search an address.
    await page.getByRole('group', { name: 'Agents shown' }).getByLabel('Site 2').uncheck();
    await expect.poll(() => graph.locator('g.path-node[data-node="ip:10.2.1.1"]').count()).toBe(0);
    await page.getByLabel('Search the path').fill('10.250.29');
    await expect.poll(() => page.getByTestId('path-search-count').textContent()).toBe('1 found');
    expect(await graph.locator('g.path-node.match').evaluateAll((els) => els.map((e) => e.getAttribute('data-node')))).toEqual(['ip:10.250.29.1']);

    // Click a hop of one agent: its target window opens at that hop, at the same range.
    await page.getByLabel('Search the path').fill('');
    const hop = graph.locator('g.path-node[data-node="ip:10.1.2.1"]');
    await hop.scrollIntoViewIfNeeded();
    await hop.click();
    await page.waitForURL((u) => u.pathname === `/targets/${seed.sessionIds[0]}`, { timeout: 15_000 });
    await expect.poll(() => page.locator('.timeline-title').allTextContents(), { timeout: 30_000 }).toEqual(expect.arrayContaining([expect.stringContaining('Hop 2')]));
    await page.screenshot({ path: join(shots, 'path-view-opened-hop.png') });
  }, 240_000);
});
