// Data files and reports (issue 18 items 4 and 5): DownloadPP2File (200, 206 when MaxSamples
// cut the range, the file name), ImportPP2File (200 with the new target, 204 into a summary),
// the round trip (the imported target's TraceGraphRows, DataPointBuckets and comments equal
// the original's), the CSV and JSON reports, and bad files: each answers a clear Error,
// writes nothing, and the server keeps serving. Histories are seeded through the ingest
// pipeline (no probing, no root).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { expectAlive } from '../security/support.js';
import { asVersion1, corrupt, generated, query, readKv, rewrite, truncate } from './datafile-fixtures.js';
import { seedHistories } from './seed-history.js';

const H = 3_600_000;
const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);
// The history is dated January 2026: keep raw samples of any age, or the store's retention
// (30 days by default) would expire them at start, before they are exported.
const KeepRaw = { HOPWATCH_RETENTION_RAW_DAYS: '36500' };
const HOPS = 4;

let hw: Appliance;
let cookie: string;
let original: number;
let files: string;

async function get(path: string) {
  return fetch(`${hw.url}${path}`, { headers: { cookie } });
}
async function json(path: string) {
  const r = await get(path);
  expect(r.status, path).toBe(200);
  return (await r.json()) as Record<string, unknown>;
}
async function upload(bytes: Buffer, name: string, summaryId = '') {
  const fd = new FormData();
  fd.append('file', new Blob([new Uint8Array(bytes)]), name);
  const r = await fetch(`${hw.url}/api/data/ImportPP2File/${summaryId}`, { method: 'POST', body: fd, headers: { cookie } });
  const text = await r.text();
  return { status: r.status, body: (text ? JSON.parse(text) : undefined) as { ID?: number; Error?: string } | undefined };
}
const sessionCount = async () => ((await (await get('/api/Sessions')).json()) as unknown[]).length;
async function download(query: string, to: string) {
  const r = await get(`/api/data/DownloadPP2File?${query}`);
  writeFileSync(to, Buffer.from(await r.arrayBuffer()));
  return r;
}

beforeAll(async () => {
  const first = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'pw', ...KeepRaw } });
  await first.stop();
  [original] = await seedHistories(first.dataDir, [
    {
      target: 'gw.example.test',
      state: 2,
      hops: HOPS,
      from: T0,
      to: T0 + 2 * H,
      intervalMs: 2500,
      comments: [
        { when: T0 + 5 * 60_000, text: 'ISP maintenance' },
        { when: T0 + 90 * 60_000, text: `quotes ' " and \\ and 'DROP TABLE samples; -- ünïcødé 😀` },
      ],
    },
  ]);
  hw = await startAppliance({ dataDir: first.dataDir, port: first.port, env: { HOPWATCH_ROOT_PASSWORD: 'pw', ...KeepRaw } });
  cookie = await signIn(hw.url, 'admin', 'pw');
  files = mkdtempSync(join(tmpdir(), 'hopwatch-files-'));
}, 120_000);
afterAll(async () => {
  await hw?.dispose();
  if (files) rmSync(files, { recursive: true, force: true });
});

describe('export and import', () => {
  let imported: number;

  it('DownloadPP2File answers a Parquet file named after the target, with its metadata', async () => {
    const r = await download(`ID=${original}`, join(files, 'whole.pp2'));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="gw.example.test_20260105-0800.pp2"; filename*=UTF-8''gw.example.test_20260105-0800.pp2`);
    const bytes = readFileSync(join(files, 'whole.pp2'));
    expect(bytes.subarray(0, 4).toString()).toBe('PAR1');
    const kv = await readKv(join(files, 'whole.pp2'));
    expect(kv['hopwatch.format']).toBe('hopwatch-data-file');
    expect(kv['hopwatch.version']).toBe('2');
    expect(JSON.parse(kv['hopwatch.columns']).latency_us).toMatch(/microseconds.*latency_us \/ 1000.*-1 timeout/);
    expect(JSON.parse(kv['hopwatch.range'])).toMatchObject({ Samples: 2 * 1440 * HOPS, Cut: false });
    expect(JSON.parse(kv['hopwatch.hosts'])).toHaveLength(HOPS);
    expect(JSON.parse(kv['hopwatch.comments'])[1].Text).toContain('ünïcødé 😀');
  });

  /** The imported target's TraceGraphRows, DataPointBuckets and comments equal the original's. */
  async function expectSameAsOriginal(imported: number) {
    const rows = async (id: number, start: number, end: number) => {
      const body = await json(`/api/data/TraceGraphRows?listType=Target&uniqueID=${id}&requests[0].ID=${id}&requests[0].Start=${start}&requests[0].End=${end}`);
      // The target's own id is the only difference allowed.
      return (body.Rows as { UniqueID: string }[]).map((r) => ({ ...r, UniqueID: r.UniqueID.replace(`${id}_h_`, 'X_h_') }));
    };
    for (const [start, end] of [[T0, T0 + 2 * H], [T0 + 17 * 60_000, T0 + 43 * 60_000 + 1234]]) {
      expect(await rows(imported, start, end)).toEqual(await rows(original, start, end));
    }
    const buckets = (id: number, hop: number, period: number) =>
      json(`/api/data/DataPointBuckets?targetId=${id}_h_${hop}&startTime=${T0}&endTime=${T0 + 2 * H}&periodSeconds=${period}&includeJitter=true`);
    for (const period of [10, 60, 600]) {
      for (const hop of [1, HOPS]) expect(await buckets(imported, hop, period)).toEqual(await buckets(original, hop, period));
    }
    const comments = async (id: number) =>
      ((await (await get(`/cmd/getcomments?sessionWebId=${id}&startDate=${T0}&endDate=${T0 + 2 * H}`)).json()) as Record<string, unknown>[]).map(
        ({ Id: _id, SessionWebId: _s, ...rest }) => rest,
      );
    const theirs = await comments(original);
    expect(theirs).toHaveLength(2);
    expect(await comments(imported)).toEqual(theirs);
  }

  it('ImportPP2File makes a new target whose rows, buckets and comments equal the original', async () => {
    const before = await sessionCount();
    const r = await upload(readFileSync(join(files, 'whole.pp2')), 'whole.pp2');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    imported = r.body!.ID!;
    expect(imported).not.toBe(original);
    expect(await sessionCount()).toBe(before + 1);
    await expectSameAsOriginal(imported);
  });

  it('a file of format version 1 (the previous release\'s writer) still imports, equal to the original', async () => {
    await asVersion1(join(files, 'whole.pp2'), join(files, 'v1.pp2'));
    const columns = await query(join(files, 'v1.pp2'), 'DESCRIBE SELECT * FROM file');
    expect(columns.map((c) => `${c.column_name} ${c.column_type}`)).toEqual(['time_ms DOUBLE', 'hop SMALLINT', 'latency_ms DOUBLE']);
    const r = await upload(readFileSync(join(files, 'v1.pp2')), 'v1.pp2');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await expectSameAsOriginal(r.body!.ID!);
  });

  it('plain DuckDB reads the file: integer columns, milliseconds by the expression docs/data-file.md gives', async () => {
    const file = join(files, 'whole.pp2');
    const columns = await query(file, 'DESCRIBE SELECT * FROM file');
    expect(columns.map((c) => `${c.column_name} ${c.column_type}`)).toEqual(['time_ms BIGINT', 'hop SMALLINT', 'latency_us INTEGER']);
    // docs/data-file.md: latency_us / 1000 is the latency in ms where latency_us >= 0; -1 is a timeout.
    const mine = await query(
      file,
      `SELECT time_ms::DOUBLE AS t, hop::INTEGER AS hop, CASE WHEN latency_us >= 0 THEN latency_us / 1000 END AS ms, latency_us = -1 AS timeout
       FROM file WHERE time_ms BETWEEN ${T0} AND ${T0 + 60_000} ORDER BY time_ms, hop`,
    );
    const report = (await json(`/api/data/SamplesReport?ID=${original}&BeginTime=${T0}&EndTime=${T0 + 60_000}`)) as { Samples: { Time: string; Hop: number; LatencyMs: number | null; Status: string }[] };
    expect(mine).toEqual(report.Samples.map((x) => ({ t: Date.parse(x.Time), hop: x.Hop, ms: x.LatencyMs, timeout: x.Status === 'timeout' })));
    expect(mine.some((x) => x.timeout)).toBe(true);
  });

  it('the imported target is open and paused, with the original target and hosts', async () => {
    const sessions = (await (await get('/api/Sessions')).json()) as { SessionID: number; State: number; TargetName: string; SampleCount: number }[];
    expect(sessions.find((s) => s.SessionID === imported)).toMatchObject({ State: 1, TargetName: 'gw.example.test', SampleCount: 2 * 1440 * HOPS });
  });

  it('the imported session is marked Imported and ends where its data ends (issue 41 item 5)', async () => {
    const sessions = (await (await get('/api/Sessions')).json()) as { SessionID: number; EndTime: string | null; Imported: boolean }[];
    const tail = (await json(`/api/data/SamplesReport?ID=${original}&BeginTime=${T0 + 2 * H - 10_000}&EndTime=${T0 + 2 * H}`)) as { Samples: { Time: string }[] };
    const dataEnd = Math.max(...tail.Samples.map((x) => Date.parse(x.Time)));
    expect(dataEnd).toBeLessThan(T0 + 2 * H);
    // The original was closed at T0 + 2 h; the copy's End is its last sample, not that.
    expect(sessions.find((s) => s.SessionID === imported)).toMatchObject({ Imported: true, EndTime: new Date(dataEnd).toISOString() });
    expect(sessions.find((s) => s.SessionID === original)).toMatchObject({ Imported: false, EndTime: new Date(T0 + 2 * H).toISOString() });
  });

  it('MaxSamples cuts the range to the newest samples: 206, and the file says so', async () => {
    const r = await download(`ID=${original}&MaxSamples=100`, join(files, 'cut.pp2'));
    expect(r.status).toBe(206);
    const range = JSON.parse((await readKv(join(files, 'cut.pp2')))['hopwatch.range']);
    expect(range).toMatchObject({ Samples: 100, Cut: true, End: T0 + 2 * H - 2500 + HOPS });
    const whole = await download(`ID=${original}&BeginTime=${T0}&EndTime=${T0 + 60_000}&MaxSamples=1000`, join(files, 'minute.pp2'));
    expect(whole.status).toBe(200);
    expect(JSON.parse((await readKv(join(files, 'minute.pp2')))['hopwatch.range'])).toMatchObject({ Samples: 24 * HOPS, Cut: false });
  });

  it('imports into a summary: 204, and the target is in it', async () => {
    const summary = await json('/cmd/createsummary?name=Imports');
    const r = await upload(readFileSync(join(files, 'minute.pp2')), 'minute.pp2', String(summary.UniqueID));
    expect(r.status).toBe(204);
    const after = (await json(`/cmd/getsummaries`)) as unknown as { UniqueID: string; TargetCount: number }[];
    expect(after.find((s) => s.UniqueID === summary.UniqueID)?.TargetCount).toBe(1);
    expect((await upload(readFileSync(join(files, 'minute.pp2')), 'minute.pp2', '999999')).status).toBe(404);
  });

  it('download refuses unknown targets and bad ranges', async () => {
    expect((await get('/api/data/DownloadPP2File?ID=999999')).status).toBe(404);
    expect((await get(`/api/data/DownloadPP2File?ID=${original}&BeginTime=${T0 + H}&EndTime=${T0}`)).status).toBe(400);
    expect((await get(`/api/data/DownloadPP2File?ID=${original}&MaxSamples=0`)).status).toBe(400);
  });
});

describe('reports', () => {
  it('HopReport: per-hop statistics of a range as JSON and CSV, the grid numbers', async () => {
    const range = `ID=${original}&BeginTime=${T0}&EndTime=${T0 + H}`;
    const report = (await json(`/api/data/HopReport?${range}`)) as { Hops: Record<string, unknown>[] };
    expect(report.Hops).toHaveLength(HOPS);
    const grid = await json(`/api/data/TraceGraphRows?listType=Target&uniqueID=${original}&requests[0].ID=${original}&requests[0].Start=${T0}&requests[0].End=${T0 + H}`);
    const row1 = (grid.Rows as { HopNum: number; TotalCount: number; Average: number }[]).find((r) => r.HopNum === 1)!;
    expect(report.Hops[0]).toMatchObject({ Hop: 1, IP: '10.251.0.1', DNSName: 'r1.example.test', Sent: row1.TotalCount, Average: row1.Average });
    const csv = await get(`/api/data/HopReport?${range}&Format=csv`);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe('Hop,IP,DNSName,Sent,Lost,LossPercent,Last,Average,Best,Worst');
    expect(lines).toHaveLength(HOPS + 1);
    expect(lines[1].startsWith(`1,10.251.0.1,r1.example.test,${row1.TotalCount},`)).toBe(true);
  });

  it('SamplesReport: raw samples of a range, 206 when MaxSamples cut it', async () => {
    const body = (await json(`/api/data/SamplesReport?ID=${original}&BeginTime=${T0}&EndTime=${T0 + 5000}`)) as { Samples: Record<string, unknown>[]; Cut: boolean };
    expect(body.Cut).toBe(false);
    expect(body.Samples).toHaveLength(2 * HOPS);
    expect(body.Samples[0]).toMatchObject({ Time: new Date(T0 + 1).toISOString(), Hop: 1, IP: '10.251.0.1' });
    const cut = await get(`/api/data/SamplesReport?ID=${original}&MaxSamples=3&Format=csv`);
    expect(cut.status).toBe(206);
    const lines = (await cut.text()).trim().split('\r\n');
    expect(lines[0]).toBe('Time,Hop,IP,LatencyMs,Status');
    expect(lines).toHaveLength(4);
  });
});

describe('bad files never hurt', () => {
  const refused = async (bytes: Buffer, name: string, status: number, error: RegExp) => {
    const before = await sessionCount();
    const r = await upload(bytes, name);
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    expect(r.body?.Error).toMatch(error);
    expect(await sessionCount()).toBe(before);
    await expectAlive(hw);
  };
  const good = () => join(files, 'minute.pp2');
  const made = async (name: string, kv: Record<string, string>, select?: string) => {
    await rewrite(good(), join(files, name), kv, select);
    return readFileSync(join(files, name));
  };

  it('a wrong extension', async () => {
    await refused(readFileSync(good()), 'data.csv', 400, /^Only \.pp2 files can be imported; data\.csv is not one\.$/);
  });
  it('a file that is not Parquet', async () => {
    await refused(Buffer.from('hello, this is not a data file at all'), 'x.pp2', 400, /not a Hopwatch data file \(it is not a Parquet file\)/);
  });
  it('a truncated file', async () => {
    truncate(good(), join(files, 't.pp2'), 0.6);
    await refused(readFileSync(join(files, 't.pp2')), 't.pp2', 400, /^t\.pp2 cannot be read: the file is truncated or damaged\.$/);
  });
  it('a corrupted file', async () => {
    corrupt(join(files, 'whole.pp2'), join(files, 'c.pp2'));
    await refused(readFileSync(join(files, 'c.pp2')), 'c.pp2', 400, /c\.pp2 (cannot be read|holds \d+ samples with an invalid|is inconsistent)/);
  });
  it('a Parquet file of something else', async () => {
    await refused(await made('other.pp2', { 'hopwatch.format': 'something-else' }), 'other.pp2', 400, /not a Hopwatch data file/);
  });
  it('a newer format version', async () => {
    await refused(await made('v3.pp2', { 'hopwatch.version': '3' }), 'v3.pp2', 400, /written by a newer Hopwatch \(data file format version 3\); this server reads versions 1 to 2/);
  });
  it('a file claiming 10^12 samples', async () => {
    const range = JSON.parse((await readKv(good()))['hopwatch.range']);
    await refused(await made('huge.pp2', { 'hopwatch.range': JSON.stringify({ ...range, Samples: 1e12 }) }), 'huge.pp2', 413, /1,000,000,000,000 hop samples; at most 100,000,000/);
  });
  it('a sample count that does not match the file', async () => {
    const range = JSON.parse((await readKv(good()))['hopwatch.range']);
    await refused(await made('less.pp2', { 'hopwatch.range': JSON.stringify({ ...range, Samples: range.Samples + 1 }) }), 'less.pp2', 400, /inconsistent/);
  });
  it('samples with invalid values', async () => {
    // -3 is Pending, a code no file holds; in version 1, -5 ms is no code at all.
    await refused(await made('neg.pp2', {}, 'time_ms, hop, (-3)::INTEGER AS latency_us'), 'neg.pp2', 400, /samples with an invalid time, hop or latency/);
    await refused(await made('neg1.pp2', { 'hopwatch.version': '1' }, 'time_ms::DOUBLE AS time_ms, hop, -5.0::DOUBLE AS latency_ms'), 'neg1.pp2', 400, /samples with an invalid time, hop or latency/);
    await refused(await made('cols.pp2', {}, 'time_ms, hop::INTEGER AS hop, latency_us'), 'cols.pp2', 400, /does not have the sample columns/);
    // Each version its own columns: version 1's DOUBLEs in a file that says version 2.
    await refused(await made('mixed.pp2', {}, 'time_ms::DOUBLE AS time_ms, hop, latency_us::DOUBLE / 1000 AS latency_ms'), 'mixed.pp2', 400, /does not have the sample columns of a Hopwatch data file of format version 2/);
  });
  it('hostile strings in the metadata', async () => {
    const target = JSON.parse((await readKv(good()))['hopwatch.target']);
    await refused(await made('long.pp2', { 'hopwatch.target': JSON.stringify({ ...target, OriginalTarget: 'x'.repeat(100_000) }) }), 'long.pp2', 400, /invalid hopwatch.target metadata: \/OriginalTarget must NOT have more than 255 characters/);
    await refused(await made('nul.pp2', { 'hopwatch.target': JSON.stringify({ ...target, Description: 'a\u0000b' }) }), 'nul.pp2', 400, /NUL character/);
    await refused(await made('notjson.pp2', { 'hopwatch.hosts': '[{"Hop": 1,' }), 'notjson.pp2', 400, /unreadable hopwatch.hosts metadata/);
    await refused(await made('hop.pp2', { 'hopwatch.hosts': JSON.stringify([{ Hop: 70000, Address: '', DnsName: '', Name: '', Notes: '' }]) }), 'hop.pp2', 400, /hopwatch.hosts/);
    // Quotes, SQL and markup are only text: imported as they are.
    const sly = `'); DROP TABLE sessions; -- <script>alert(1)</script> \\' "`;
    const r = await upload(await made('sly.pp2', { 'hopwatch.target': JSON.stringify({ ...target, Description: sly }) }), 'sly.pp2');
    expect(r.status).toBe(200);
    const grid = await json(`/api/data/TraceGraphRows?listType=Target&uniqueID=${r.body!.ID}`);
    expect((grid.Details as { TargetDescription: string }).TargetDescription).toBe(sly);
  });
  it('no file, or the file in another field', async () => {
    const fd = new FormData();
    fd.append('other', new Blob([new Uint8Array(readFileSync(good()))]), 'minute.pp2');
    const r = await fetch(`${hw.url}/api/data/ImportPP2File/`, { method: 'POST', body: fd, headers: { cookie } });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { Error: string }).Error).toMatch(/field "file"/);
    const j = await fetch(`${hw.url}/api/data/ImportPP2File`, { method: 'POST', body: '{}', headers: { cookie, 'content-type': 'application/json' } });
    expect(j.status).toBe(400);
  });
});

/** The server process's resident memory (bytes), read from /proc: the child whose environment names its port. */
function serverRss(port: number): number {
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const env = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
      if (!env.includes(`HOPWATCH_PORT=${port}`) || !readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('main.js')) continue;
      return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'latin1'))![1]) * 1024;
    } catch {
      // a process that ended meanwhile, or not ours
    }
  }
  throw new Error(`no server process on port ${port}`);
}

// Issue 39 item 5: a few KB of Parquet that declare and hold millions of samples. Limits on
// what a file expands to are checked from the Parquet footer before any sample is read
// (docs/data-file.md "Limits"); what is within them is read a row group at a time, the
// server answering meanwhile, its memory bounded whatever the file says.
describe('decompression bombs', () => {
  const MB = 1024 * 1024;
  const good = () => join(files, 'minute.pp2');
  const sessions = async () => (await (await get('/api/Sessions')).json()) as { SessionID: number; SampleCount: number }[];
  /** The upload's answer, and how much the server's RSS grew meanwhile (sampled while it ran). */
  async function uploadWatched(path: string, name: string) {
    const before = serverRss(hw.port);
    let peak = before;
    let done = false;
    const sampler = (async () => {
      while (!done) {
        peak = Math.max(peak, serverRss(hw.port));
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const r = await upload(readFileSync(path), name).finally(() => (done = true));
    await sampler;
    return { ...r, grown: Math.max(peak, serverRss(hw.port)) - before };
  }
  const refusedBomb = async (path: string, name: string, error: RegExp) => {
    const before = await sessionCount();
    const r = await uploadWatched(path, name);
    expect(r.status, JSON.stringify(r.body)).toBe(413);
    expect(r.body?.Error).toMatch(error);
    expect(await sessionCount()).toBe(before);
    // Refused from the footer: nothing of the samples was decoded.
    expect(r.grown).toBeLessThan(100 * MB);
    await expectAlive(hw);
  };

  it('a row group over the limit is refused before its samples are read', async () => {
    // 3,000,000 samples in one row group (a few KB): within the samples per import, over the rows per row group.
    await generated(good(), join(files, 'group.pp2'), 3_000_000, `(${T0} + i // ${HOPS} * 1000)::BIGINT AS time_ms, (1 + i % ${HOPS})::SMALLINT AS hop, 1000::INTEGER AS latency_us`, { rowGroupSize: 3_000_000 });
    expect(statSync(join(files, 'group.pp2')).size).toBeLessThan(100_000);
    await refusedBomb(join(files, 'group.pp2'), 'group.pp2', /^group\.pp2 has a row group of 3,000,000 hop samples; at most 1,048,576 can be imported \(rows per row group\)\.$/);
  });

  it('metadata over the limit is refused before it is parsed', async () => {
    const comments = Array.from({ length: 1300 }, (_, k) => ({ When: T0 + k, Text: 'x'.repeat(4000), Type: 0, ExtraAttributesJson: '' }));
    await rewrite(good(), join(files, 'meta.pp2'), { 'hopwatch.comments': JSON.stringify(comments) });
    await refusedBomb(join(files, 'meta.pp2'), 'meta.pp2', /^meta\.pp2 has \d{1,3}(,\d{3})+ bytes of metadata; at most 4,194,304 can be imported \(metadata size\)\.$/);
  });

  it('three samples 5.7 years apart import without expanding the rollup grid', async () => {
    // Rolled up in one step, the 3 M empty 1-minute periods x 5 hops between them made the
    // kernel's grid 15 M cells (seconds of the event loop, and GBs); skipped, they cost nothing.
    const gap = 3_000_000 * 60_000;
    await generated(good(), join(files, 'gap.pp2'), 3, `(${T0} + (i > 0)::INTEGER * ${gap} + i)::BIGINT AS time_ms, (CASE WHEN i = 0 THEN 1 ELSE ${HOPS} END)::SMALLINT AS hop, 1000::INTEGER AS latency_us`);
    const r = await uploadWatched(join(files, 'gap.pp2'), 'gap.pp2');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.grown).toBeLessThan(200 * MB);
    expect((await sessions()).find((s) => s.SessionID === r.body!.ID)?.SampleCount).toBe(3);
    // Both ends are counted: hop 1's one sample and hop 4's two, over the whole span (read from the rollups).
    const id = r.body!.ID!;
    const grid = await json(`/api/data/TraceGraphRows?listType=Target&uniqueID=${id}&requests[0].ID=${id}&requests[0].Start=${T0 - H}&requests[0].End=${T0 + gap + H}`);
    const counts = (grid.Rows as { HopNum: number; TotalCount: number }[]).filter((x) => x.HopNum > 0 && x.TotalCount > 0).map((x) => [x.HopNum, x.TotalCount]);
    expect(counts).toEqual([[1, 1], [HOPS, 2]]);
  });

  it('comments and route changes up to the metadata limit import all, in statements of many rows', async () => {
    const routeChanges = Array.from({ length: 1234 }, (_, k) => ({ Time: T0 + k * 40, Hop: 1 + (k % HOPS), OldAddress: `10.251.0.${k % 200}`, NewAddress: `10.251.1.${k % 200}` }));
    const comments = Array.from({ length: 567 }, (_, k) => ({ When: T0 + k * 100, Text: `note ${k} 'q' ünï`, Type: k % 3, ExtraAttributesJson: k % 2 ? '{"a":1}' : '' }));
    await rewrite(good(), join(files, 'many.pp2'), { 'hopwatch.route_changes': JSON.stringify(routeChanges), 'hopwatch.comments': JSON.stringify(comments) });
    const r = await upload(readFileSync(join(files, 'many.pp2')), 'many.pp2');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // Exported again, the target carries the same rows.
    await download(`ID=${r.body!.ID}`, join(files, 'many-again.pp2'));
    const kv = await readKv(join(files, 'many-again.pp2'));
    expect(JSON.parse(kv['hopwatch.route_changes'])).toEqual(routeChanges);
    expect(JSON.parse(kv['hopwatch.comments'])).toEqual(comments);
  });

  it('a large file within the limits imports while the server keeps answering', async () => {
    const n = 4_000_000;
    await generated(good(), join(files, 'large.pp2'), n, `(${T0} + i // 30 * 1000)::BIGINT AS time_ms, (1 + i % 30)::SMALLINT AS hop, (1000 + i % 7)::INTEGER AS latency_us`);
    const size = statSync(join(files, 'large.pp2')).size;
    let finished = false;
    const imported = upload(readFileSync(join(files, 'large.pp2')), 'large.pp2').finally(() => (finished = true));
    // Mid-import: the upload has landed whole in the server's temporary directory (it is
    // removed when the import answers), so the import is running.
    const tmp = join(hw.dataDir, 'tmp');
    const landed = () =>
      existsSync(tmp) &&
      readdirSync(tmp).some((d) => {
        try {
          return statSync(join(tmp, d, 'upload.pp2')).size === size;
        } catch {
          return false;
        }
      });
    while (!landed() && !finished) await new Promise((r) => setTimeout(r, 5));
    expect(finished, 'the import answered before its upload was seen').toBe(false);
    // The process answers (its event loop is not held), and so does a read of the store
    // (the import's transaction holds the writer, not the console's reads).
    const alive = await fetch(`${hw.url}/healthz`);
    expect(alive.status).toBe(200);
    expect(finished, 'a request made mid-import was answered only after the import').toBe(false);
    const listed = await get('/api/Sessions');
    expect(listed.status).toBe(200);
    expect(finished, 'a read of the store made mid-import was answered only after the import').toBe(false);
    const r = await imported;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await sessions()).find((s) => s.SessionID === r.body!.ID)?.SampleCount).toBe(n);
  }, 300_000);
});

describe('HOPWATCH_MAX_IMPORT_MB', () => {
  let small: Appliance;
  afterAll(async () => small?.dispose());

  it('answers 413 for a larger upload and keeps serving', async () => {
    small = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'pw', HOPWATCH_MAX_IMPORT_MB: '1' } });
    const c = await signIn(small.url, 'admin', 'pw');
    const send = async (size: number) => {
      const fd = new FormData();
      fd.append('file', new Blob([new Uint8Array(size).fill(1)]), 'big.pp2');
      const r = await fetch(`${small.url}/api/data/ImportPP2File/`, { method: 'POST', body: fd, headers: { cookie: c } });
      return { status: r.status, body: (await r.json()) as { Error: string } };
    };
    // Over the limit by the declared length (refused before the body is read)...
    const big = await send(3 * 1024 * 1024);
    expect(big.status).toBe(413);
    expect(big.body.Error).toBe('The file is larger than the import limit of 1 MB (HOPWATCH_MAX_IMPORT_MB).');
    // ...and by what arrives (the declared length within the slack, the file over the limit).
    const edge = await send(1024 * 1024 + 16 * 1024);
    expect(edge.status).toBe(413);
    const r = await fetch(`${small.url}/api/Sessions`, { headers: { cookie: c } });
    expect(await r.json()).toEqual([]);
    await expectAlive(small);
  }, 60_000);
});
