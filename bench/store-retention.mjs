// For bench:store: 14 simulated days of steady ingest (one target, 30 hops at 2.5 s, through
// the real ingest path) with raw samples kept 7 days: after each day, the day's expiry
// (server/store/retention.ts), the packing of the closed day into hop order (sample-order.ts)
// and a CHECKPOINT, then the file's size. Goal: flat after day 7
// (DuckDB reuses the blocks the deleted row groups free). Runs in a store of its own.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function retentionRun({ dist, HOPS = 30, INTERVAL = 2500, DAYS = 14, RAW_DAYS = 7 }) {
  const { Store } = await import(dist('server/store/db.js'));
  const { IngestPipeline } = await import(dist('server/ingest/pipeline.js'));
  const { DomainEventBus } = await import(dist('server/events.js'));
  const { expireOnce } = await import(dist('server/store/retention.js'));
  const { packSamples } = await import(dist('server/store/sample-order.js'));
  const { LatencyCode } = await import(dist('engine/latency-codes.js'));
  const DAY = 86_400_000;
  const dir = mkdtempSync(join(tmpdir(), 'hopwatch-bench-retention-'));
  const store = await Store.open(dir);
  const ingest = new IngestPipeline(store, new DomainEventBus());
  await ingest.init();
  const lines = [];
  try {
    const start = Math.floor((Date.now() - DAYS * DAY) / DAY) * DAY;
    const account = await store.one(`INSERT INTO accounts (name) VALUES ('bench') RETURNING id`);
    const { id: sid } = await store.one(
      `INSERT INTO sessions (account_id, original_target, target_name, target_ip, state, dynamic_dns_mode, trace_interval_ms, start_time)
       VALUES ($1, 'retention', '', '10.0.0.1', 1, 0, $2, $3) RETURNING id`,
      [account.id, INTERVAL, start],
    );
    ingest.openSession(sid, account.id);
    let seed = 77;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
    const perHour = (3_600_000 / INTERVAL) * HOPS;
    const hourBatch = (t0) => {
      const time = new Float64Array(perHour);
      const hop = new Int32Array(perHour);
      const latency = new Float64Array(perHour);
      for (let r = 0, i = 0; i < perHour; r++) {
        for (let h = 1; h <= HOPS; h++, i++) {
          time[i] = t0 + r * INTERVAL;
          hop[i] = h;
          latency[i] = rnd() < 0.02 ? LatencyCode.Timeout : 1 + h * 0.8 + rnd() * 4;
        }
      }
      return { length: perHour, session: new Int32Array(perHour).fill(sid), time, hop, latency };
    };
    const sizes = [];
    const expiryMs = []; // each day's whole expiry (wall time), where it expired samples
    for (let d = 0; d < DAYS; d++) {
      for (let hr = 0; hr < 24; hr++) await ingest.addBatch(hourBatch(start + d * DAY + hr * 3_600_000));
      const t0 = performance.now();
      const r = await expireOnce(store, start + (d + 1) * DAY, { rawDays: RAW_DAYS, minuteDays: 400 });
      if (r.samples) expiryMs.push(performance.now() - t0);
      // The server's hourly packing: the day before this one is closed now (sample-order.ts).
      const p = await packSamples(store);
      await store.run('CHECKPOINT');
      const db = await store.one('SELECT used_blocks, total_blocks, block_size FROM pragma_database_size() WHERE database_name = current_database()');
      const { n } = await store.one('SELECT count(*)::DOUBLE AS n FROM samples');
      const { rows } = await store.one('SELECT count(*)::DOUBLE AS rows FROM rollups');
      const mb = (x) => (x / 1048576).toFixed(1);
      sizes.push(statSync(store.path).size);
      lines.push(
        `  day ${String(d + 1).padStart(2)}: file ${mb(statSync(store.path).size)} MB (used ${mb(db.used_blocks * db.block_size)} MB), raw samples kept ${n.toLocaleString()}, rollup rows ${rows.toLocaleString()}, ` +
          `expired ${r.samples.toLocaleString()} in ${r.transactions} transactions (median ${r.medianMs.toFixed(1)} ms, longest ${r.longestMs.toFixed(1)} ms), ` +
          `packed ${p.rows.toLocaleString()} in ${p.transactions} (median ${p.medianMs.toFixed(1)} ms, longest ${p.longestMs.toFixed(1)} ms)`,
      );
    }
    // Growth per day while raw samples only accumulate, and once they expire as fast as they
    // come: what is left is the rollup tiers, kept 400 days (1 minute) and for ever.
    const perDay = (a, b) => (sizes[b] - sizes[a]) / (b - a) / 1048576;
    return { lines, before: perDay(0, RAW_DAYS - 1), after: perDay(RAW_DAYS, DAYS - 1), expiryMs };
  } finally {
    await ingest.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
