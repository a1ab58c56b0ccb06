// Issue 39 item 7: alert exports must not fill the disk. An export action repeats at most
// every ExportMinRepeatSeconds (a rule asking for less is refused), each account's exports
// live in its own folder under a quota of files and bytes (the oldest of that account are
// pruned, another account's stay), files are 0600 in 0700 folders, and every answer names the
// file relative to the export folder, never the server's absolute path (docs/alerts.md).
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { sleep, waitFor } from './support.js';

let hw: Appliance;
let cookie: string;
let exportDir: string;
let target: number;

const send = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(`${hw.url}${path}`, { method, headers: { cookie, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
};
const always = (samples: number) => ({ Kind: 'latency', Hop: 0, Samples: samples, ThresholdMs: 0 });
const exportAction = { Kind: 'export', Config: { MaxSamples: 50 } };
const written = /^Data file written: (\S+\.pp2) \(\d+ samples/;

beforeAll(async () => {
  hw = await startAppliance({ env: { HOPWATCH_ENGINE: 'simulated', HOPWATCH_ROOT_PASSWORD: 'exportquota-root-pw', HOPWATCH_ALERT_EXPORT_MAX_FILES: '2', HOPWATCH_ALERT_EXPORT_MAX_MB: '5' } });
  exportDir = join(hw.dataDir, 'alert-exports');
  cookie = await signIn(hw.url, 'admin', 'exportquota-root-pw');
  const r = await send('GET', '/cmd/newtarget?target=127.0.0.1&traceInterval=0.5');
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  target = r.body.ID as number;
  await sleep(3000);
});
afterAll(async () => {
  if (hw) {
    mkdirSync('test-results', { recursive: true });
    writeFileSync('test-results/alerts-export-quota-server.log', hw.output());
  }
  await hw?.dispose();
});

describe('the minimum repeat of export actions', () => {
  it('refuses a rule with an export action that may repeat more often than every 300 s', async () => {
    const refused = await send('POST', '/api/alerts', { Name: 'Every sample', Condition: always(2), Events: ['holds'], MinRepeatSeconds: 0, Targets: [target], Actions: [exportAction] });
    expect(refused.status).toBe(400);
    expect(refused.body.Error).toMatch(/MinRepeatSeconds.*300/);
    expect((await send('POST', '/api/alerts', { Name: 'Just under', Condition: always(2), Events: ['holds'], MinRepeatSeconds: 299, Targets: [target], Actions: [exportAction] })).status).toBe(400);
    expect((await send('GET', '/api/alerts')).body).toEqual([]);

    // The same rule without the export is fine; adding the export to it is refused.
    const log = await send('POST', '/api/alerts', { Name: 'Log only', Condition: always(2), Events: ['holds'], MinRepeatSeconds: 0, Targets: [], Actions: [{ Kind: 'log', Config: {} }] });
    expect(log.status, JSON.stringify(log.body)).toBe(200);
    const edit = await send('PUT', `/api/alerts/${log.body.AlertID}`, { Name: 'Log only', Condition: always(2), Events: ['holds'], MinRepeatSeconds: 0, Targets: [], Actions: [{ Kind: 'log', Config: {} }, exportAction] });
    expect(edit.status).toBe(400);
    expect(edit.body.Error).toMatch(/MinRepeatSeconds.*300/);
    const ok = await send('PUT', `/api/alerts/${log.body.AlertID}`, { Name: 'Log only', Condition: always(2), Events: ['holds'], MinRepeatSeconds: 300, Targets: [], Actions: [exportAction] });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.MinRepeatSeconds).toBe(300);
    expect((await send('DELETE', `/api/alerts/${log.body.AlertID}`)).status).toBe(204);
  });
});

describe('the per-account export quota', () => {
  it('keeps at most the quota of files per account, pruning the oldest of that account only', async () => {
    // Another account's export (as the server files them): the quota of this account never touches it.
    const other = join(exportDir, 'account-999');
    mkdirSync(other, { recursive: true });
    const othersFile = join(other, 'alert-5_target-5_start_20260101-000000.pp2');
    writeFileSync(othersFile, 'PAR1 another account');

    const answers: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await send('POST', '/api/alerts/test-action', { Kind: 'export', Config: { MaxSamples: 50 }, TargetID: target });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.Ok, r.body.Answer).toBe(true);
      answers.push(r.body.Answer);
      // The file name holds the time to the second: the next test is a new file.
      await sleep(1100);
    }
    const names = answers.map((a) => written.exec(a)?.[1]);
    for (const [i, a] of answers.entries()) {
      // Relative to the export folder, in the account's folder: never the server's path.
      expect(a).not.toContain(hw.dataDir);
      expect(names[i], a).toMatch(/^account-\d+\/alert-0_target-\d+_start_\d{8}-\d{6}\.pp2$/);
    }
    const folder = names[0]!.split('/')[0];
    const kept = readdirSync(join(exportDir, folder)).sort();
    expect(kept).toEqual([names[1]!.split('/')[1], names[2]!.split('/')[1]].sort());
    expect(readdirSync(other)).toEqual(['alert-5_target-5_start_20260101-000000.pp2']);

    // Only the server's user reads them.
    expect(statSync(join(exportDir, folder)).mode & 0o777).toBe(0o700);
    for (const f of kept) expect(statSync(join(exportDir, folder, f)).mode & 0o777).toBe(0o600);
  });

  it('answers a real alert\'s export relative to the export folder', async () => {
    const created = await send('POST', '/api/alerts', { Name: 'Evidence', Condition: always(2), Events: ['start'], Targets: [target], Actions: [exportAction] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.AlertID as number;
    const sent = await waitFor('the export', async () => ((await send('GET', `/api/alerts/${id}/notifications`)).body as { status: string; answer: string }[]).find((n) => n.status === 'sent'), 30_000);
    expect(sent.answer).toMatch(new RegExp(`^Data file written: account-\\d+/alert-${id}_target-${target}_start_\\d{8}-\\d{6}\\.pp2 \\(\\d+ samples`));
    expect(sent.answer).not.toContain(exportDir);
    expect((await send('GET', `/api/alerts/${id}`)).body.LastAnswer).toBe(sent.answer);
    expect((await send('DELETE', `/api/alerts/${id}`)).status).toBe(204);
  });

  it('is stated in Settings > General', async () => {
    const screen = await send('GET', '/cmd/getscreen?screenName=General');
    expect(screen.status).toBe(200);
    expect(screen.body.html).toMatch(/Alert exports:.*at most 2 files and 5 MB/);
    expect(screen.body.html).not.toContain(exportDir);
  });
});
