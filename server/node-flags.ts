// How the server's process starts: the node flags and glibc's malloc settings it runs with. Every
// launcher passes them (package.json start and serve, container/entrypoint.sh, the suites' and
// benchmarks' server processes; node-flags.test.ts checks the first two), since V8 sizes its heap
// and glibc reads its settings when the process starts.
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

// glibc's malloc settings the server runs with, in its environment (glibc reads them when the
// process starts, so every launcher sets them, as it passes the flags above).
//
// MALLOC_MMAP_THRESHOLD_=131072: blocks of 128 KiB and more are mapped on their own and given back
// to the system when freed. glibc's default threshold slides: it rises to the size of the largest
// mapped block ever freed (up to 32 MiB), so once DuckDB's results and the recent data's windows
// have freed a few large buffers, later ones come from the main heap, and its trim threshold
// (twice the sliding one) keeps that much free at the heap's top. bench:soak measured that as the
// second hour's RSS growth: the main heap's in-use flat at 83-85 MB while its free space rose
// from 23.5 to 41.0 MB, one free chunk of 17.3 MB, a single mapped block in the process
// (docs/benchmarks.md "2026-11-30 06:57-09:38 UTC"). Setting it also stops the sliding.
// MALLOC_TRIM_THRESHOLD_=262144: the heap's top is given back once 256 KiB of it is free.
// Measured with both: docs/benchmarks.md "2026-11-30 10:27 UTC", docs/store.md.
export const ServerMallocEnv: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '262144' };
