// Stores that watch or hold their reads, for tests of code that shares reads (a session read
// by thousands of connections at once, docs/hub.md "5,000 consoles"): the real store
// underneath, every other member passed through.
import type { Store } from '../db.js';

function withRead(store: Store, read: (real: (...args: unknown[]) => Promise<unknown>, args: unknown[]) => Promise<unknown>): Store {
  return new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name, target) as unknown;
      if (name === 'read') return (...args: unknown[]) => read((...a) => (value as (...x: unknown[]) => Promise<unknown>).apply(target, a), args);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The store, counting the reads (Store.read) made through it. */
export function countingReads(store: Store): { store: Store; reads: () => number; reset: () => void } {
  let reads = 0;
  return {
    store: withRead(store, (real, args) => (reads++, real(...args))),
    reads: () => reads,
    reset: () => (reads = 0),
  };
}

/**
 * The store, each read run at once but its answer held until `open()`: `hasRun` settles when
 * the first read has run, so a test can change the data while that read is still under way.
 */
export function heldReads(store: Store): { store: Store; hasRun: Promise<void>; open: () => void } {
  let open!: () => void;
  let ran!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const hasRun = new Promise<void>((r) => (ran = r));
  const held = withRead(store, async (real, args) => {
    const answer = await real(...args);
    ran();
    await gate;
    return answer;
  });
  return { store: held, hasRun, open };
}
