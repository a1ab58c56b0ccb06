// Child process of rollup-groups.integration.test.ts: ingests hours of rounds into a session
// through the real pipeline (rollup rows kept back, never written), prints how many samples
// were acknowledged, and waits to be killed with SIGKILL: no close, no flush of what waits.
// Usage: node ingest-until-killed.mjs <dataDir> <accountId> <sessionId> <t0> <hours> <hops> [databaseUrl]
// (with a database URL the store is PostgreSQL's: the process dies, the server keeps what it committed)
const dist = (p) => new URL(`../../../dist/${p}`, import.meta.url).href;
const { Store } = await import(dist('server/store/db.js'));
const { IngestPipeline } = await import(dist('server/ingest/pipeline.js'));
const { DomainEventBus } = await import(dist('server/events.js'));
const { LatencyCode } = await import(dist('engine/latency-codes.js'));

const [dir, accountId, sessionId, t0, hours, hops] = process.argv.slice(2, 8).map((x, i) => (i === 0 ? x : Number(x)));
const databaseUrl = process.argv[8];
const store = await Store.open(dir, databaseUrl ? { databaseUrl } : {});
const ingest = new IngestPipeline(store, new DomainEventBus(), { rollupWriteRows: 1e9, rollupWriteAgeMs: 1e9 });
await ingest.init();
ingest.openSession(sessionId, accountId);
let acked = 0;
for (let h = 0; h < hours; h++) {
  const n = 3600 * hops;
  const b = { length: n, session: new Int32Array(n).fill(sessionId), time: new Float64Array(n), hop: new Int32Array(n), latency: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    b.time[i] = t0 + h * 3_600_000 + Math.floor(i / hops) * 1000 + (i % hops);
    b.hop[i] = (i % hops) + 1;
    b.latency[i] = i % 41 === 0 ? LatencyCode.Timeout : 1 + (i % hops) + ((i * 7919) % 1000) / 100;
  }
  await ingest.addBatch(b);
  acked += n;
}
console.log(`ACKED ${acked} UNWRITTEN ${ingest.unwrittenRollupRows}`);
setInterval(() => {}, 1000); // until killed
