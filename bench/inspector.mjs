// A Chrome DevTools Protocol client for a server process started with --inspect=127.0.0.1:0
// (bench:soak): the V8 heap after a full collection, and heap snapshots for diagnosis, without
// a route in the product. Only the HeapProfiler, Profiler and Runtime domains are used: the Debugger
// domain, which would slow the server's code, is never enabled.
import { createWriteStream, writeFileSync } from 'node:fs';

/** The inspector's WebSocket address from the server's stderr ("Debugger listening on ws://..."). */
export function inspectorUrlFrom(stderrText) {
  return /Debugger listening on (ws:\/\/\S+)/.exec(stderrText)?.[1];
}

export async function connectInspector(wsUrl) {
  const ws = new WebSocket(wsUrl);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = () => reject(new Error(`inspector ${wsUrl}: connection failed`));
  });
  let next = 1;
  const pending = new Map();
  const listeners = new Map();
  ws.onmessage = (e) => {
    const m = JSON.parse(String(e.data));
    if (m.id !== undefined) {
      const p = pending.get(m.id);
      pending.delete(m.id);
      if (m.error) p?.reject(new Error(`${p.method}: ${m.error.message}`));
      else p?.resolve(m.result);
    } else listeners.get(m.method)?.(m.params);
  };
  const call = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject, method });
      ws.send(JSON.stringify({ id, method, params }));
    });
  return {
    call,
    /**
     * The main thread's V8 heap after a full (major, compacting) collection: used and total
     * bytes, and the ArrayBuffers' backing stores then (outside the heap: the typed arrays of
     * the recent data, server/rollups/recent-data.ts), from process.memoryUsage().
     */
    async heapAfterFullGc() {
      await call('HeapProfiler.collectGarbage');
      const { usedSize, totalSize } = await call('Runtime.getHeapUsage');
      const m = await call('Runtime.evaluate', { expression: 'process.memoryUsage().arrayBuffers', returnByValue: true });
      return { used: usedSize, total: totalSize, arrayBuffers: Number(m.result.value) };
    },
    /** Writes a .heapsnapshot (after a collection) to `path`; open two in Chrome DevTools' Comparison view, or bench/heap-diff.mjs. */
    async snapshot(path) {
      const out = createWriteStream(path);
      listeners.set('HeapProfiler.addHeapSnapshotChunk', ({ chunk }) => out.write(chunk));
      await call('HeapProfiler.takeHeapSnapshot', { reportProgress: false, captureNumericValue: false });
      listeners.delete('HeapProfiler.addHeapSnapshotChunk');
      await new Promise((r) => out.end(r));
    },
    /**
     * A CPU profile of the main thread over `ms` (the Profiler domain: sampling, every
     * `intervalUs`), written to `path` as a .cpuprofile (Chrome DevTools' Performance panel, or
     * bench/cpu-profile-summary.mjs).
     */
    async cpuProfile(path, ms, intervalUs = 1000) {
      await call('Profiler.enable');
      await call('Profiler.setSamplingInterval', { interval: intervalUs });
      await call('Profiler.start');
      await new Promise((r) => setTimeout(r, ms));
      const { profile } = await call('Profiler.stop');
      await call('Profiler.disable');
      writeFileSync(path, JSON.stringify(profile));
    },
    close() {
      ws.close();
    },
  };
}
