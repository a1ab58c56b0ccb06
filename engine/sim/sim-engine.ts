// The simulated engine: the real trace sessions, trace link, trace loops and prober, with the
// network seam on a simulated network (sim-network.ts) instead of the raw sockets. It runs in
// the calling thread (no probe worker: nothing here needs a raw socket), on a virtual clock
// for fast, repeatable tests or in real time for a server (the console, API and hub suites).
import type { TraceEngine } from '../engine.js';
import type { ProbeClock } from '../probe/network.js';
import { Prober } from '../probe/prober.js';
import { serveTraces } from '../probe/serve.js';
import { RoundsLink, type RoundsHost } from '../trace/probe-pool.js';
import type { TraceBackend } from '../trace/trace-backend.js';
import { TraceSession } from '../trace/trace-session.js';
import { checkScenario, type SimScenario } from './scenario.js';
import { VirtualClock, realTimeClock } from './sim-clock.js';
import { simulatedNetwork } from './sim-network.js';
import { SimPaths } from './sim-paths.js';

export interface SimulatedEngineOptions {
  scenarios: SimScenario[];
  /** 'virtual' (default): time jumps from timer to timer; 'real': wall-clock time. */
  clock?: 'virtual' | 'real';
}

export interface SimulatedEngine extends TraceEngine {
  readonly kind: 'simulated';
  readonly clock: ProbeClock;
  /** Resolves after `ms` of the engine's time (virtual: as soon as the rounds before it ran). */
  sleep(ms: number): Promise<void>;
}

export function createSimulatedEngine(options: SimulatedEngineOptions): SimulatedEngine {
  const virtual = options.clock !== 'real' ? new VirtualClock() : null;
  const clock: ProbeClock = virtual ?? realTimeClock;
  const paths = new SimPaths(options.scenarios.map(checkScenario), clock);
  const network = simulatedNetwork(paths, clock);
  const host: RoundsHost = {
    serve(port) {
      const prober = new Prober(network);
      return serveTraces(prober, port).finally(() => prober.close());
    },
    check: async () => ({ ok: true }),
    destroy: async () => {},
  };
  const link = new RoundsLink(host);
  const backend: TraceBackend = {
    link,
    // As the kernel's routing would: the scenario's own address toward its target, or no route.
    sourceAddressFor: async (destination, family) => paths.route(destination).source(family),
    wallMs: () => clock.wallMs(),
  };
  return {
    kind: 'simulated',
    clock,
    startTrace: (o) => new TraceSession(o, backend),
    checkProbePermission: () => link.checkProbePermission(),
    shutdown: () => link.close(),
    sleep: (ms) => (virtual ? virtual.sleep(ms) : new Promise((resolve) => setTimeout(resolve, ms))),
  };
}
