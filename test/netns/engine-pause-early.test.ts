// A trace paused before its target has resolved must not probe until it is resumed.
// Loopback only: no namespace needed.
import { afterAll, describe, expect, it } from 'vitest';
import type { TraceRound } from '../../engine/index.js';
import { engine } from '../support/built.js';
import { asRoot } from './rounds.js';

const { startTrace, shutdownEngine } = engine;

describe.skipIf(!asRoot)('pause while starting', () => {
  afterAll(async () => {
    await shutdownEngine();
  });

  it('runs no rounds until resume, then runs them', async () => {
    const h = startTrace({ target: '127.0.0.1', intervalSeconds: 0.05, timeoutMs: 200, maxTtl: 4, reverseDns: false });
    h.pause();
    const rounds: TraceRound[] = [];
    h.on('round', (r) => rounds.push(r));
    try {
      await new Promise((ok) => setTimeout(ok, 600));
      expect(h.state).toBe('paused');
      expect(rounds.filter((r) => !r.marker)).toEqual([]);
      h.resume();
      const deadline = Date.now() + 5000;
      while (rounds.filter((r) => !r.marker).length < 3 && Date.now() < deadline) await new Promise((ok) => setTimeout(ok, 50));
      expect(h.state).toBe('running');
      expect(rounds.filter((r) => !r.marker).length).toBeGreaterThanOrEqual(3);
    } finally {
      await h.stop();
    }
  });
});
