// Test fixture: a target's history written through the real ingest pipeline (Piscina worker,
// WASM rollups, DuckDB) into a stopped appliance's database, so the sessions and data file
// suites run without probing (no root). Deterministic: the same arguments give the same
// samples. Imports the built store and pipeline (npm run build first).
import { DomainEventBus, IngestPipeline, Store } from '../support/built.js';
import { openTestStore } from '../../server/store/testing/test-store.js';

export interface History {
  target: string;
  /** SessionState: 0 Active, 1 Paused, 2 Closed. */
  state: number;
  hops: number;
  from: number;
  to: number;
  intervalMs: number;
  /** The session's end (Closed sessions); default `to`. */
  endTime?: number | null;
  comments?: { when: number; text: string }[];
  seed?: number;
}

export const Timeout = -4194304 - 1;

/** Inserts one session per history with its hosts, samples and comments; answers the ids. */
export async function seedHistories(dataDir: string, histories: History[]): Promise<number[]> {
  const store = await openTestStore(dataDir);
  const ingest = new IngestPipeline(store, new DomainEventBus());
  await ingest.init();
  const ids: number[] = [];
  try {
    const account = (await store.one<{ id: number }>('SELECT min(id) AS id FROM accounts'))!.id;
    for (const h of histories) {
      const row = await store.one<{ id: number }>(
        `INSERT INTO sessions (account_id, original_target, target_name, target_ip, state, dynamic_dns_mode, trace_interval_ms, start_time, end_time, description)
         VALUES ($1, $2, $2, $3, $4, 0, $5, $6, $7, 'seeded') RETURNING id`,
        [account, h.target, `10.251.0.${h.hops}`, h.state, h.intervalMs, h.from, h.state === 2 ? (h.endTime === undefined ? h.to : h.endTime) : null],
      );
      const id = row!.id;
      ids.push(id);
      for (let hop = 1; hop <= h.hops; hop++) {
        await store.run(`INSERT INTO hosts (session_id, hop, address, dns_name, name, notes, updated_at) VALUES ($1, $2, $3, $4, '', '', 0)`, [
          id, hop, `10.251.0.${hop}`, `r${hop}.example.test`,
        ]);
      }
      for (const c of h.comments ?? []) {
        await store.run(`INSERT INTO comments (session_id, when_ms, text, type, extra_attributes_json, updated_at) VALUES ($1, $2, $3, 0, '', 0)`, [id, c.when, c.text]);
      }
      let seed = h.seed ?? id * 7919;
      const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
      ingest.openSession(id, account);
      const perBatch = Math.max(1, Math.floor(3_600_000 / h.intervalMs));
      for (let t0 = h.from; t0 < h.to; t0 += perBatch * h.intervalMs) {
        const time: number[] = [];
        const hop: number[] = [];
        const latency: number[] = [];
        for (let t = t0; t < Math.min(h.to, t0 + perBatch * h.intervalMs); t += h.intervalMs) {
          for (let k = 1; k <= h.hops; k++) {
            time.push(t + k);
            hop.push(k);
            latency.push(rnd() < 0.05 ? Timeout : 1 + k + rnd() * 10);
          }
        }
        const n = time.length;
        await ingest.addBatch({ length: n, session: new Int32Array(n).fill(id), time: Float64Array.from(time), hop: Int32Array.from(hop), latency: Float64Array.from(latency) });
      }
      await ingest.finishSession(id);
    }
  } finally {
    await ingest.close();
    await store.close();
  }
  return ids;
}
