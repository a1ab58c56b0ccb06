// A TraceEngine for bench:agents' 200-agent phase that makes rounds without probes: every
// interval each trace emits one round over the scenario's path (its hops' addresses, each rtt
// the scenario's with a little noise, the target's last), at the moment the round would end
// (its start + the target's rtt). The agents' own link code (AgentProgram: gathering, spool,
// frames, acknowledgements) is what runs; the engine's cost per probe is the process phase's
// figure. Why: the full simulated engine (packets built, sent through a simulated network,
// parsed) for 200 agents x 5 targets x 30 hops a second took 1.0 to 1.4 of this host's 2 cores,
// so the server waited for a CPU and the delay measured the harness (docs/benchmarks.md).
import { EventEmitter } from 'node:events';

class SyntheticTrace extends EventEmitter {
  constructor(options, scenario) {
    super();
    this.options = { ...options };
    this.address = scenario.target.v4;
    this.state = 'running';
    this.index = 0;
    this.path = [...scenario.hops.map((h) => ({ address: h.v4, rtt: h.rttMs })), { address: scenario.target.v4, rtt: scenario.target.rttMs }];
    this.intervalMs = Math.max(100, (options.intervalSeconds ?? 1) * 1000);
    // Traces of one agent start spread over the interval, as real ones drift apart.
    this.timer = setTimeout(() => this.tick(), Math.random() * this.intervalMs);
  }

  tick() {
    if (this.state !== 'running') return;
    const end = this.path[this.path.length - 1].rtt;
    const time = Date.now() - end;
    const hops = this.path.map((h, i) => ({ ttl: i + 1, address: h.address, name: null, rtt: h.rtt * (0.9 + Math.random() * 0.2), reply: i === this.path.length - 1 ? 'echoReply' : 'timeExceeded' }));
    this.emit('round', { time, index: this.index++, target: this.address, reachedTarget: true, hops });
    this.timer = setTimeout(() => this.tick(), this.intervalMs);
  }

  pause() {
    this.state = 'paused';
    clearTimeout(this.timer);
  }

  resume() {
    if (this.state !== 'paused') return;
    this.state = 'running';
    this.timer = setTimeout(() => this.tick(), this.intervalMs);
  }

  setInterval(seconds) {
    this.intervalMs = Math.max(100, seconds * 1000);
  }

  setFinalHopOnly() {}

  async reResolve() {
    return this.address;
  }

  async waitingTtls() {
    return [];
  }

  async stop() {
    this.state = 'stopped';
    clearTimeout(this.timer);
  }
}

export function createSyntheticEngine(scenario) {
  const traces = new Set();
  return {
    kind: 'simulated',
    startTrace(options) {
      const t = new SyntheticTrace(options, scenario);
      traces.add(t);
      return t;
    },
    async checkProbePermission() {},
    async shutdown() {
      await Promise.all([...traces].map((t) => t.stop()));
    },
  };
}
