// Child process of migration-replay.integration.test.ts: opens a store in <dataDir> (every
// migration applied, committed to the WAL, no checkpoint), prints MIGRATED and waits to be
// killed with SIGKILL: no close, so the next start must replay the migrations from the WAL.
const dist = (p) => new URL(`../../../dist/${p}`, import.meta.url).href;
const { Store } = await import(dist('server/store/db.js'));
await Store.open(process.argv[2]);
console.log('MIGRATED');
setInterval(() => {}, 1000); // until killed
