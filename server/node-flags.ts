// The node flags the server runs with. Every launcher passes them (package.json start and
// serve, container/entrypoint.sh, the suites' and benchmarks' server processes; node-flags.test.ts
// checks the first two), since V8 sizes its heap when the process starts.
//
// --initial-old-space-size=64: V8 runs no full collection before its old generation holds
// 64 MB. Without it, a server whose live heap is small (about 10 MB: a new appliance, a few
// targets) starts marking again soon after every collection, because the young generation
// (up to 16 MB) no longer fits in the room left below the old generation's limit; an old range's
// graph then ran a full collection every 8 to 10 calls, and the calls it overlapped waited
// for it (the DataPointBuckets goal, docs/store.md "Next for speed"). A server under load
// has a larger heap anyway (200 agents: ~49 MB live, 60 to 160 MB between full collections; RSS
// and CPU within their run-to-run spread with and without the flag); idle, 4 MB more RSS.
//
// --max-semi-space-size=8: the young generation's semi-spaces grow to 8 MB at most. Node 24's V8
// lets them grow to 32 MB (a 64 MB new space; Node 20's grew to 16, a 32 MB new space), so the
// rule above (the young generation against the room left below the old generation's limit)
// started marking again after every few first reads of an old range: bench:store's first read
// p95 went from 14-16 ms on Node 20 to 23-25 ms on Node 24 (same tree, same hour), p50 unchanged.
// With 8: p95 13.6 to 16.3 in five runs (16: 14.3 to 20.4; none: 23.0 to 24.5), ingest the same.
export const ServerNodeFlags: readonly string[] = ['--initial-old-space-size=64', '--max-semi-space-size=8'];
