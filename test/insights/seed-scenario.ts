// Writes a scenario's model samples into a stopped appliance's database through the real
// ingest pipeline (Piscina worker, WASM rollups, DuckDB), with its hosts, as one closed
// session: the Insights calls then read them exactly as they read traced data.
import { DomainEventBus, IngestPipeline, Store } from '../support/built.js';
import { ModelStart, modelHosts, modelTargetAddress, simulate, type Scenario } from './model.js';
import { openTestStore } from '../../server/store/testing/test-store.js';

export async function seedScenario(dataDir: string, s: Scenario, seed: number): Promise<number> {
  const store = await openTestStore(dataDir);
  const ingest = new IngestPipeline(store, new DomainEventBus());
  await ingest.init();
  try {
    const account = (await store.one<{ id: number }>('SELECT min(id) AS id FROM accounts'))!.id;
    const end = ModelStart + s.minutes * 60_000;
    const row = await store.one<{ id: number }>(
      `INSERT INTO sessions (account_id, original_target, target_name, target_ip, state, dynamic_dns_mode, trace_interval_ms, start_time, end_time, description)
       VALUES ($1, $2, $2, $3, 2, 0, $4, $5, $6, $7) RETURNING id`,
      [account, modelTargetAddress, modelTargetAddress, s.intervalSeconds * 1000, ModelStart, end, s.name],
    );
    const id = row!.id;
    for (const h of modelHosts(s)) {
      await store.run(`INSERT INTO hosts (session_id, hop, address, dns_name, name, notes, updated_at) VALUES ($1, $2, $3, '', '', '', 0)`, [id, h.hop, h.address]);
    }
    ingest.openSession(id, account);
    const samples = simulate(s, seed);
    const perBatch = 50_000;
    for (let i = 0; i < samples.length; i += perBatch) {
      const j = Math.min(samples.length, i + perBatch);
      const n = j - i;
      await ingest.addBatch({
        length: n,
        session: new Int32Array(n).fill(id),
        time: Float64Array.from(samples.time).subarray(i, j),
        hop: Int32Array.from(samples.hop).subarray(i, j),
        latency: Float64Array.from(samples.latency).subarray(i, j),
      });
    }
    await ingest.finishSession(id);
    return id;
  } finally {
    await ingest.close();
    await store.close();
  }
}
