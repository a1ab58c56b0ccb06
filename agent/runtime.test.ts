// Starts and stops of one trace id, asked for while an earlier one is still under way (an
// assignment on a new connection while the old connection's is stopping the trace): the runtime
// must end with at most one running trace per id, the one asked for last.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { AgentRuntime, type AgentSink } from './runtime.js';
import type { TraceHandle, TraceOptions } from '../engine/index.js';

/** A trace handle whose stop takes a while, like a real trace waiting for its round in flight. */
class SlowStopTrace extends EventEmitter {
  running = true;
  constructor(readonly options: TraceOptions) {
    super();
  }
  async stop(): Promise<void> {
    await new Promise((r) => setTimeout(r, 20));
    this.running = false;
  }
  pause(): void {}
  resume(): void {}
}

function runtime() {
  const started: SlowStopTrace[] = [];
  const sink: AgentSink = { round: async () => undefined, routeChange: () => undefined, targetResolved: () => undefined, traceError: () => undefined };
  const rt = new AgentRuntime(sink, (options) => {
    const t = new SlowStopTrace(options);
    started.push(t);
    return t as unknown as TraceHandle;
  });
  return { rt, started, running: () => started.filter((t) => t.running) };
}

const spec = (target: string) => ({ traceId: 7, target, intervalMs: 1000, finalHopOnly: false });

describe('AgentRuntime: one trace per id', () => {
  it('two overlapping starts of a running trace leave one trace running, the last asked for', async () => {
    const { rt, running } = runtime();
    await rt.run(spec('first'));
    await Promise.all([rt.run(spec('second')), rt.run(spec('third'))]);
    expect(running().map((t) => t.options.target)).toEqual(['third']);
    expect(rt.size).toBe(1);
  });

  it('overlapping starts of a trace not yet running leave one running, the last asked for', async () => {
    const { rt, started, running } = runtime();
    await Promise.all([rt.run(spec('a')), rt.run(spec('b')), rt.run(spec('c'))]);
    expect(running().map((t) => t.options.target)).toEqual(['c']);
    expect(started.length).toBe(3);
  });

  it('a stop asked for while a start is under way stops what that start runs', async () => {
    const { rt, running } = runtime();
    await rt.run(spec('first'));
    const restarted = rt.run(spec('second'));
    const stopped = rt.stop(7);
    await Promise.all([restarted, stopped]);
    expect(running()).toEqual([]);
    expect(rt.has(7)).toBe(false);
  });

  it('stopAll while starts are under way leaves nothing running', async () => {
    const { rt, running } = runtime();
    await rt.run(spec('first'));
    const again = rt.run(spec('second'));
    await Promise.all([again, rt.stopAll()]);
    // stopAll saw trace 7 (the first) and queued its stop behind the start: the second is stopped too.
    expect(running()).toEqual([]);
  });
});

describe('AgentRuntime: a trace started again', () => {
  /** A trace whose rounds the test emits, and which emits its stop marker at stop, as the engine's do. */
  class EmittingTrace extends EventEmitter {
    constructor(readonly options: TraceOptions) {
      super();
    }
    round(time: number, marker?: 'stop'): void {
      this.emit('round', { time, index: 0, target: this.options.target, reachedTarget: true, hops: [], ...(marker ? { marker } : {}) });
    }
    async stop(): Promise<void> {
      this.round(1001, 'stop');
    }
  }

  it('starts after the stopped one (startAfter: its newest round time, its stop marker), and afresh after a stop', async () => {
    const started: EmittingTrace[] = [];
    const sink: AgentSink = { round: () => undefined, routeChange: () => undefined, targetResolved: () => undefined, traceError: () => undefined };
    const rt = new AgentRuntime(sink, (options) => {
      const t = new EmittingTrace(options);
      started.push(t);
      return t as unknown as TraceHandle;
    });
    await rt.run(spec('a'));
    expect(started[0].options.startAfter).toBeUndefined();
    started[0].round(1000);
    await rt.run(spec('a'));
    expect(started[1].options.startAfter).toBe(1001);
    // A round in flight at a pause ends after its marker: an older time does not move it back.
    started[1].round(900);
    await rt.run(spec('a'));
    expect(started[2].options.startAfter).toBe(1001);
    await rt.stop(7);
    await rt.run(spec('a'));
    expect(started[3].options.startAfter).toBeUndefined();
  });
});
