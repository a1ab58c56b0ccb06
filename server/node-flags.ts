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
// Why fix them at all: glibc's default mmap threshold slides, rising to the size of the largest
// mapped block ever freed (up to 32 MiB), and its trim threshold with it (twice the sliding one),
// so once DuckDB's results and the recent data's windows have freed a few large buffers, later ones
// come from the main heap and that much stays free at its top. bench:soak measured that as the
// second hour's RSS growth: the main heap's in-use flat at 83-85 MB while its free space rose from
// 23.5 to 41.0 MB (docs/benchmarks.md "2026-11-30 06:57-09:38 UTC"). Setting either stops the sliding.
// MALLOC_MMAP_THRESHOLD_=1048576: blocks of 1 MiB and more are mapped on their own and unmapped
// when freed. At 128 KiB (the first fixed value) the ingest's main thread spent 89-101 ms of CPU
// per million hop samples against glibc's default 37-41: mapping and faulting in the blocks of
// 128 KiB to 1 MiB each time; at 1 MiB, 41-60 (ingest ratio 0.72-0.80, goal 0.7).
// MALLOC_TRIM_THRESHOLD_=8388608: the heap's top is given back once 8 MiB of it is free. At 256 KiB
// the top was given back and taken again under load and the 200-agent delay p99 went to 259-438 ms
// (goal 300; 131-175 at 8 MiB); at 64 MiB the soak's RSS rose 37 MB an hour (goal 5). At 8 MiB the
// soak printed every goal met (RSS -9.6 MB/hour after the first hour, the main heap -0.8).
// Measured: docs/benchmarks.md, Soak "2026-12-01 02:29-04:31 UTC" and Store "mmap 1 MiB with the trim at
// 16, 32 and 64 MiB"; docs/store.md "DuckDB's memory".
export const ServerMallocEnv: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '1048576', MALLOC_TRIM_THRESHOLD_: '8388608' };
