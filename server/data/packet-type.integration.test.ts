// Issue 41 item 5: the target window's header did not show the packet type after the
// target's configuration was switched to TCP. TraceGraphRows' Details carry it, read from the
// configuration on every call, so a switch shows on the next read.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore } from '../store/testing/test-store.js';

const dist = (p: string) => new URL(`../../dist/${p}`, import.meta.url).href;
const { Store } = await import(dist('server/store/db.js'));
const { traceGraphRows } = await import(dist('server/data/graph-rows.js'));

let dir: string;
let store: InstanceType<typeof Store>;
let principal: { userId: number; accountId: number; username: string; isRoot: boolean; claims: string[] };
let config: number;
let sid: number;

const details = async () =>
  ((await traceGraphRows(store, principal, { requests: [], columnNames: [], listType: 'Target', uniqueID: String(sid) })) as { Details: { PacketType: string } }).Details;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hopwatch-packet-type-'));
  store = await openTestStore(dir);
  const account = await store.one(`INSERT INTO accounts (name) VALUES ('pt') RETURNING id`);
  principal = { userId: 0, accountId: Number(account.id), username: 'pt', isRoot: true, claims: ['TargetManagement'] };
  config = Number((await store.one(`INSERT INTO configurations (account_id, name, warn, bad, scale) VALUES ($1, 'Web', 100, 250, 0) RETURNING id`, [principal.accountId])).id);
  const r = await store.one(
    `INSERT INTO sessions (account_id, original_target, target_name, target_ip, state, dynamic_dns_mode, trace_interval_ms, start_time, sentinel_id, configuration_id)
     VALUES ($1, 'web.test', 'web.test', '10.79.0.1', 0, 0, 1000, 0, -1, $2) RETURNING id`,
    [principal.accountId, config],
  );
  sid = Number(r.id);
});

afterAll(async () => {
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the target header's packet type", () => {
  it('is ICMP by default, and follows a switch to TCP and to UDP', async () => {
    expect((await details()).PacketType).toBe('ICMP');
    await store.run('UPDATE configurations SET engine_json = $2 WHERE id = $1', [config, JSON.stringify({ packetType: 'TCP', tcpPort: 443 })]);
    expect((await details()).PacketType).toBe('TCP port 443');
    await store.run('UPDATE configurations SET engine_json = $2 WHERE id = $1', [config, JSON.stringify({ packetType: 'UDP' })]);
    expect((await details()).PacketType).toBe('UDP');
  });
});
