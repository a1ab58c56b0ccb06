// Issue 16: the Pending code (spec 2). waitingTtls() names the TTLs whose newest probe has
// neither answered nor timed out when asked: a silent hop waits out its timeout, a slow target
// is out until it answers, hops that answered are not pending; a stopped trace has none.
import { afterEach, describe, expect, it } from 'vitest';
import type { SimScenario, SimulatedEngine, TraceHandle, TraceRound } from '../../engine/index.js';
import { engine } from '../support/built.js';
import { collectRounds } from '../netns/rounds.js';

const { createSimulatedEngine } = engine;

let sim: SimulatedEngine | undefined;
const open: TraceHandle[] = [];
function trace(scenario: SimScenario, options: Parameters<SimulatedEngine['startTrace']>[0]): TraceHandle {
  sim ??= createSimulatedEngine({ scenarios: [scenario] });
  const h = sim.startTrace({ reverseDns: false, ...options });
  open.push(h);
  return h;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.stop()));
  await sim?.shutdown();
  sim = undefined;
});

// Topology id 117 (addresses only: nothing is sent on the simulated network).
const path: SimScenario = {
  name: 'pending-117',
  hops: [
    { v4: '10.251.117.2', rttMs: 5 },
    { silent: true, rttMs: 10 },
    { v4: '10.251.117.18', rttMs: 15 },
  ],
  target: { v4: '10.251.117.26', rttMs: 400 },
};

describe('waitingTtls (Pending)', () => {
  it('names the probes still out: the silent hop until its timeout, the slow target until it answers', async () => {
    const h = trace(path, { target: path.target.v4!, intervalSeconds: 1, timeoutMs: 3000 });
    const rounds: TraceRound[] = [];
    h.on('round', (r) => rounds.push(r));
    // The first round (at 0 s) is delivered when the silent hop's probe times out, at 3 s.
    const [first] = await collectRounds(h, 1);
    await sim!.sleep(first.time + 5_200 - sim!.clock.wallMs());
    // Rounds started at 3, 4 and 5 s are in flight; the newest (5 s) has answers from hops 1
    // and 3 (5 and 15 ms) but not yet from the target (400 ms) nor the silent hop (3 s).
    expect(await h.waitingTtls()).toEqual([2, 4]);
    await sim!.sleep(400); // 5.6 s: the target answered the newest round; the silent hop is still out
    expect(await h.waitingTtls()).toEqual([2]);
    // Delivered rounds are complete: the silent hop's probes there are timeouts (loss), never pending.
    expect(rounds.length).toBeGreaterThanOrEqual(3);
    for (const r of rounds) expect(r.hops.find((x) => x.ttl === 2)!.reply).toBe('timeout');
    await sim!.sleep(400); // 6.0x s: a new round just went out: every hop's newest probe is out
    const justStarted = await h.waitingTtls();
    expect(justStarted).toContain(2);
    expect(justStarted).toContain(4);
  });

  it('has nothing pending between rounds on a path that answers at once, nor once stopped', async () => {
    const quick: SimScenario = { name: 'pending-117-quick', hops: [{ v4: '10.251.117.34', rttMs: 1 }], target: { v4: '10.251.117.42', rttMs: 2 } };
    const h = trace(quick, { target: quick.target.v4!, intervalSeconds: 1, timeoutMs: 3000 });
    const [first] = await collectRounds(h, 1);
    await sim!.sleep(first.time + 2_500 - sim!.clock.wallMs());
    expect(await h.waitingTtls()).toEqual([]);
    await h.stop();
    expect(await h.waitingTtls()).toEqual([]);
  });
});
