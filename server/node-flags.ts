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
export const ServerNodeFlags: readonly string[] = ['--initial-old-space-size=64'];
