// TraceGraphRows of target lists (Summary, Agent): one row per target, read for all targets
// at once (a constant number of statements). Each row must be what the target's own rows
// (listType Target) show for its final hop, whatever mix of targets the list holds: open ones
// answered from the ingest's memory, a paused one from the store, one without samples,
// different configurations and agents, one watched by an enabled alert (and one by a disabled
// one), hop details stored and in the open minute.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore } from '../store/testing/test-store.js';

const dist = (p: string) => new URL(`../../dist/${p}`, import.meta.url).href;
const { Store } = await import(dist('server/store/db.js'));
const { IngestPipeline } = await import(dist('server/ingest/pipeline.js'));
const { DomainEventBus } = await import(dist('server/events.js'));
const { traceGraphRows } = await import(dist('server/data/graph-rows.js'));
const { LatencyCode } = await import(dist('engine/latency-codes.js'));

type Row = { UniqueID: string; HopNum: number; DNSName: string; IP: string; Columns: Record<string, string>; [k: string]: unknown };
type Rows = { UniqueID: string; WarningSpeed: number; BadSpeed: number; GraphScale: number; Rows: Row[]; Details: Record<string, unknown> | null };

const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);
let seed = 7;
const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;

let dir: string;
let store: InstanceType<typeof Store>;
let ingest: InstanceType<typeof IngestPipeline>;
let principal: { userId: number; accountId: number; username: string; isRoot: boolean; claims: string[] };
let agentId: number;
const open: number[] = [];
let paused: number;
let fresh: number;

async function session(name: string, targetName: string, ip: string, state: number, sentinel: number, config: number): Promise<number> {
  const r = await store.one(
    `INSERT INTO sessions (account_id, original_target, target_name, target_ip, state, dynamic_dns_mode, trace_interval_ms, start_time, sentinel_id, configuration_id)
     VALUES ($1, $2, $3, $4, $5, 0, 1000, $6, $7, $8) RETURNING id`,
    [principal.accountId, name, targetName, ip, state, T0, sentinel, config],
  );
  return Number(r.id);
}

/** Rounds every second over [from, to): hops 1..hops, the last one the target (some lost). */
function feed(sid: number, hops: number, ip: string, from: number, to: number) {
  for (let t = from; t < to; t += 1000) {
    const seen = [];
    for (let h = 1; h <= hops; h++) {
      const x = rnd();
      const lat = x < 0.05 ? LatencyCode.Timeout : 1 + h * 2 + rnd() * 5;
      ingest.add(sid, t + h, h, lat);
      // Hop 2 answers from two addresses, one of them with details (an MPLS label).
      const address = h === hops ? ip : h === 2 && x < 0.3 ? `10.77.${sid}.22` : `10.77.${sid}.${h}`;
      seen.push({ ttl: h, address: lat === LatencyCode.Timeout ? null : address, rtt: lat, ...(h === 2 && x < 0.3 ? { mpls: [{ label: 100 + sid, exp: 0, bottomOfStack: true, ttl: 1 }] } : {}) });
      if (t === from) ingest.seeHost({ sessionId: sid, hop: h, address, dnsName: h === hops ? '' : `r${h}.s${sid}.test` });
    }
    ingest.seeHopHosts(sid, t, seen);
  }
}

const list = async (listType: string, uniqueID: string): Promise<Rows> =>
  traceGraphRows(store, principal, { requests: [], columnNames: [], listType, uniqueID }, ingest);

/** The row a target list shows for a target: its Target rows' header, as its final hop. */
async function expectedRow(sid: number): Promise<Row> {
  const t: Rows = await list('Target', String(sid));
  const header = t.Rows[0];
  const last = Number(String(t.Details!.TargetHostID).split('_h_')[1]);
  return { ...header, UniqueID: String(t.Details!.TargetHostID), HopNum: last, Columns: { ...header.Columns, DNSName: header.DNSName, IPAddress: header.IP } };
}

/** Counts the statements of the reads (every Store.read goes through here). */
let statements = 0;
function countStatements() {
  const read = store.read.bind(store);
  store.read = <T,>(fn: (q: Record<string, unknown>) => Promise<T>) =>
    read((q: Record<string, unknown>) =>
      fn(
        new Proxy(q, {
          get(target, key) {
            const v = target[key as string];
            if (typeof v !== 'function') return v;
            return (...a: unknown[]) => {
              statements++;
              return (v as (...x: unknown[]) => unknown).apply(target, a);
            };
          },
        }),
      ),
    );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hopwatch-summary-rows-'));
  store = await openTestStore(dir);
  const account = await store.one(`INSERT INTO accounts (name) VALUES ('rows') RETURNING id`);
  principal = { userId: 0, accountId: Number(account.id), username: 'rows', isRoot: true, claims: ['TargetManagement'] };
  const fast = Number((await store.one(`INSERT INTO configurations (account_id, name, warn, bad, scale) VALUES ($1, 'Fast', 20, 40, 0) RETURNING id`, [principal.accountId])).id);
  const slow = Number((await store.one(`INSERT INTO configurations (account_id, name, warn, bad, scale) VALUES ($1, 'Slow', 300, 900, 500) RETURNING id`, [principal.accountId])).id);
  agentId = Number((await store.one(`INSERT INTO agents (account_id, unique_id, name, created_at) VALUES ($1, 'agent-1', 'Branch office', 0) RETURNING id`, [principal.accountId])).id);
  ingest = new IngestPipeline(store, new DomainEventBus(), { rollupWriteRows: 0 });
  await ingest.init();
  const specs = [
    { name: 'a.test', targetName: 'a.test', ip: '10.78.0.1', sentinel: -1, config: fast, hops: 3 },
    { name: '10.78.0.2', targetName: '', ip: '10.78.0.2', sentinel: agentId, config: slow, hops: 5 },
    { name: 'c.test', targetName: 'c.test', ip: '10.78.0.3', sentinel: agentId, config: fast, hops: 4 },
    { name: 'd.test', targetName: 'd.test', ip: '10.78.0.4', sentinel: -1, config: 999_999, hops: 2 }, // a configuration since deleted
  ];
  for (const s of specs) {
    const sid = await session(s.name, s.targetName, s.ip, 0, s.sentinel, s.config);
    open.push(sid);
    ingest.openSession(sid, principal.accountId);
    feed(sid, s.hops, s.ip, T0, T0 + 7 * 60_000 + 30_000); // whole minutes stored, an open one in memory
    await ingest.commit();
  }
  // Paused: its samples only in the store (finished in ingest).
  paused = await session('p.test', 'p.test', '10.78.0.5', 0, agentId, slow);
  ingest.openSession(paused, principal.accountId);
  feed(paused, 3, '10.78.0.5', T0, T0 + 4 * 60_000);
  await ingest.commit();
  await ingest.finishSession(paused);
  await store.run('UPDATE sessions SET state = 1 WHERE id = $1', [paused]);
  fresh = await session('new.test', 'new.test', '10.78.0.6', 0, -1, fast); // no samples yet
  // Closed: never in a list.
  await session('closed.test', 'closed.test', '10.78.0.7', 2, -1, fast);
  const alert = async (enabled: boolean, sid: number) => {
    const a = await store.one(
      `INSERT INTO alerts (account_id, created_by, name, condition_json, events_json, min_repeat_seconds, enabled, created_at) VALUES ($1, 0, 'x', '{}', '[]', 60, $2, 0) RETURNING id`,
      [principal.accountId, enabled],
    );
    await store.run('INSERT INTO alert_targets VALUES ($1, $2)', [a.id, sid]);
  };
  await alert(true, open[1]);
  await alert(false, open[2]);
  countStatements();
});

afterAll(async () => {
  await ingest?.close();
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('target lists', () => {
  it('answer for each target the final-hop row of its own rows', async () => {
    const all = Number((await store.one(`INSERT INTO summaries (account_id, name, is_all_targets, created_at) VALUES ($1, 'All', true, 0) RETURNING id`, [principal.accountId])).id);
    const got = await list('Summary', String(all));
    const ids = [...open, paused, fresh].sort((a, b) => a - b);
    const expected = await Promise.all(ids.map(expectedRow));
    expect(got.Rows).toEqual(expected);
    // What the rows are made of is there: hop details, an alert, both agents, the configurations.
    expect(got.Rows.some((r) => (r.HopDetails as { Hosts: unknown[] } | null)?.Hosts.length)).toBe(true);
    expect(got.Rows.map((r) => r.HasAlert)).toEqual(ids.map((id) => id === open[1]));
    expect(new Set(got.Rows.map((r) => r.Columns.Agent)).size).toBe(2);
    expect(new Set(got.Rows.map((r) => r.Columns.ConfigName))).toEqual(new Set(['Fast', 'Slow', 'Default']));
    expect(got.Rows.filter((r) => r.IsRunning).length).toBe(5);
    // The list's speeds are the last target's configuration's; the scale fits the slowest row.
    expect([got.WarningSpeed, got.BadSpeed]).toEqual([20, 40]);
    expect(got.GraphScale).toBe(Math.max(10, Math.max(0, ...expected.map((r) => (r.Maximum as number | null) ?? 0)) * 1.01));
    expect(got.Details).toBeNull();

    const agent = await list('Agent', String(agentId));
    expect(agent.Rows).toEqual(expected.filter((r) => [open[1], open[2], paused].includes(Number(r.UniqueID.split('_h_')[0]))));
  });

  it('read all targets with as many statements for two targets as for four', async () => {
    const summary = async (members: number[]) => {
      const id = Number((await store.one(`INSERT INTO summaries (account_id, name, created_at) VALUES ($1, 'Some', 0) RETURNING id`, [principal.accountId])).id);
      for (const m of members) await store.run('INSERT INTO summary_members VALUES ($1, $2, 0)', [id, m]);
      statements = 0;
      const rows = await list('Summary', String(id));
      expect(rows.Rows.length).toBe(members.length);
      return statements;
    };
    const two = await summary(open.slice(0, 2));
    const four = await summary(open);
    expect(two).toBeGreaterThan(0);
    expect(four).toBe(two);
  });
});
