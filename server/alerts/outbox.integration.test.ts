// Delivery does not wait for the store's write lane, and a crash loses nothing (docs/alerts.md,
// "Delivery does not wait for ingest"). The write lane is held the way a long ingest flush
// holds it; a loss alert's webhook must still arrive. A copy of the data directory taken then
// is what a kill -9 at that moment leaves on disk (DuckDB's committed file and WAL, the
// outbox journal): a server started on it replays the journal, so the notification is sent
// (again: at least once, under the same X-Hopwatch-Notification), the target is still firing (no second start) and its end comes once.
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LatencyCode } from '../../engine/latency-codes.js';
import { loadConfig } from '../config.js';
import { DomainEventBus } from '../events.js';
import type { IngestPipeline } from '../ingest/pipeline.js';
import type { RawPending } from '../ingest/session-rollup-state.js';
import { Store } from '../store/db.js';
import { insertActiveSession } from '../ingest/testing/sessions.js';
import { LoopbackWebhooks, startHttpSink, waitFor, type HttpSink } from '../../test/alerts/support.js';
import { AlertService, OutboxDir } from './service.js';
import { NotificationHeader } from './actions.js';

const T = LatencyCode.Timeout;
const root = mkdtempSync(join(tmpdir(), 'hopwatch-outbox-'));
const quiet = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, child() { return this; }, level: 'silent' } as never;
const sinks: HttpSink[] = [];
afterAll(async () => {
  for (const s of sinks) await s.close();
  rmSync(root, { recursive: true, force: true });
});

/** Stands in for the ingest pipeline: the test hands the service "committed" rounds. */
function fakeIngest() {
  const listeners: ((sessionId: number, samples: RawPending) => void)[] = [];
  return {
    ingest: { onCommitted: (l: (sessionId: number, samples: RawPending) => void) => listeners.push(l) } as unknown as IngestPipeline,
    /** Rounds of a 2-hop trace at the given target latencies, one a second up to now. */
    commit(sessionId: number, target: number[]) {
      const now = Date.now();
      const time: number[] = [];
      const hop: number[] = [];
      const latency: number[] = [];
      target.forEach((l, i) => {
        const t = now - (target.length - 1 - i) * 1000;
        time.push(t, t);
        hop.push(1, 2);
        latency.push(1, l);
      });
      for (const l of listeners) l(sessionId, { time, hop, latency } as unknown as RawPending);
    },
  };
}

async function startService(dir: string) {
  const store = await Store.open(dir);
  const fake = fakeIngest();
  const alerts = new AlertService({ store, events: new DomainEventBus(), config: loadConfig({ HOPWATCH_DATA_DIR: dir, ...LoopbackWebhooks }), log: quiet, sendMail: async () => ({ response: '250', messageId: '' }) });
  await alerts.start(fake.ingest);
  return { store, alerts, fake };
}

const events = (sink: HttpSink) => sink.requests.map((r) => (JSON.parse(r.body) as { event: string }).event);

describe('the alerts outbox', () => {
  it('delivers while the write lane is held, and a crash then is replayed from the journal', async () => {
    const sink = await startHttpSink();
    sinks.push(sink);
    const dir = join(root, 'live');
    const first = await startService(dir);
    const account = (await first.store.one<{ id: number }>(`INSERT INTO accounts (name) VALUES ('ob') RETURNING id`))!;
    const user = (await first.store.one<{ id: number }>(`INSERT INTO users (account_id, name, email, password_hash, is_root) VALUES ($1, 'ob', '', 'x', true) RETURNING id`, [account.id]))!;
    const sessionId = await insertActiveSession(first.store, account.id, 'ob', Date.now());
    const p = { userId: user.id, accountId: account.id, username: 'ob', isRoot: true, claims: ['AlertsManagement'] };
    const alert = await first.alerts.createAlert(p, {
      Name: 'outbox',
      Condition: { Kind: 'loss', Hop: 0, Samples: 5, Lost: 3 },
      Events: ['start', 'end'],
      MinRepeatSeconds: 0,
      // The end at the first clean window (the journal is tested here; Recover in hysteresis.test.ts).
      RecoverSeconds: 0,
      Targets: [sessionId],
      Actions: [{ Kind: 'webhook', Config: { Method: 'POST', Url: `${sink.url}/hook`, Format: 'custom', Template: '{"event":"$event","time":"$time"}' } }],
    });

    // An ingest flush that does not finish: the single write lane is held from now on.
    let release!: () => void;
    const held = first.store.exclusive(() => new Promise<void>((ok) => (release = ok)), { background: true });
    first.fake.commit(sessionId, [5, T, T, T, 5]);
    await waitFor('the start webhook while the write lane is held', () => sink.requests.length >= 1, 20_000);
    expect(events(sink)).toEqual(['start']);
    expect(first.alerts.evaluator.firingTargets(alert.AlertID)).toEqual([sessionId]);
    // Only the journal has it: the store's write waits behind the held lane.
    expect(readdirSync(join(dir, OutboxDir)).length).toBe(1);

    // kill -9 now: what is on disk is the database as committed and the journal.
    const crashed = join(root, 'crashed');
    cpSync(dir, crashed, { recursive: true });

    release();
    await held;
    await first.alerts.close();
    await first.store.close();
    // A clean stop with everything stored leaves no journal behind, and the row was sent once.
    expect(existsSync(join(dir, OutboxDir)) && readdirSync(join(dir, OutboxDir)).length).toBe(0);
    const clean = await startService(dir);
    const cleanRows = await clean.store.all<{ event: string; status: string }>('SELECT event, status FROM notifications ORDER BY id');
    expect(cleanRows).toEqual([{ event: 'start', status: 'sent' }]);
    await clean.alerts.close();
    await clean.store.close();
    expect(events(sink)).toEqual(['start']);

    // The server started on the crash's disk.
    const again = await startService(crashed);
    try {
      // The journal's row is queued (the store did not have it) and sent: at least once.
      await waitFor('the replayed start', () => sink.requests.length >= 2, 20_000);
      expect(events(sink)).toEqual(['start', 'start']);
      expect(sink.requests[1].body).toBe(sink.requests[0].body);
      // The same notification by its header: a receiver can drop the repeat.
      expect(sink.requests[1].headers[NotificationHeader]).toBe(sink.requests[0].headers[NotificationHeader]);
      expect(sink.requests[0].headers[NotificationHeader]).toMatch(/^\d+$/);
      // The firing state came back from the journal too: more loss starts nothing new.
      expect(again.alerts.evaluator.firingTargets(alert.AlertID)).toEqual([sessionId]);
      expect(readdirSync(join(crashed, OutboxDir))).toEqual([]);
      again.fake.commit(sessionId, [T, T, T, T, T]);
      again.fake.commit(sessionId, [5, 5, 5, 5, 5]);
      await waitFor('the end', () => sink.requests.length >= 3, 20_000);
      await new Promise((ok) => setTimeout(ok, 500));
      expect(events(sink)).toEqual(['start', 'start', 'end']);
      await waitFor('both rows stored as sent', async () => {
        const rows = await again.store.all<{ event: string; status: string }>('SELECT event, status FROM notifications ORDER BY id');
        return rows.length === 2 && rows.every((r) => r.status === 'sent') && rows;
      }, 20_000);
      const rows = await again.store.all<{ event: string }>('SELECT event FROM notifications ORDER BY id');
      expect(rows.map((r) => r.event)).toEqual(['start', 'end']);
    } finally {
      await again.alerts.close();
      await again.store.close();
    }
  });
});
