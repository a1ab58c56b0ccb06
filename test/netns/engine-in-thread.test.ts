// The raw sockets on the calling thread (createInThreadRawEngine, what the agent runs): the same
// rounds as the probe worker's, no probe thread, the process free to exit after shutdown, and
// the same missing-CAP_NET_RAW answer. Each case runs in a child process
// so that its threads and modules are its own.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine } from '../support/built.js';
import { buildTopology, type Topology } from './topology.js';
import { asRoot } from './rounds.js';

const engineUrl = new URL('../../dist/engine/index.js', import.meta.url).href;

/** Runs `body` (an async function body given `m`, the engine module) in a fresh node; its stdout. */
function child(body: string, prefix: string[] = []): string {
  const script = `import(${JSON.stringify(engineUrl)}).then(async (m) => { ${body} })`;
  const [cmd, ...args] = [...prefix, process.execPath, '--input-type=module', '-e', script];
  // The timeout is a guard: a child that keeps its loop alive after shutdown never exits.
  return execFileSync(cmd, args, { encoding: 'utf8', timeout: 60_000 });
}

describe.skipIf(!asRoot)('raw sockets on the calling thread', () => {
  let topo: Topology;

  beforeAll(() => {
    topo = buildTopology({ id: 180, routers: 3 });
  });

  afterAll(() => {
    topo?.destroy();
  });

  // The probe worker's thread is named (engine/probe/worker.ts): seen with the worker, not without.
  const ProbeThread = 'hopwatch-probe';
  const engines = { 'the probe worker': 'm.rawEngine', 'the calling thread': 'm.createInThreadRawEngine()' };

  for (const packetType of ['ICMP', 'UDP', 'TCP'] as const) {
    for (const [where, make] of Object.entries(engines)) {
      it(`${packetType} on ${where}: the path's hops, and the process exits after shutdown`, () => {
        const out = child(`
          const { readdirSync, readFileSync } = await import('node:fs');
          const e = ${make};
          const h = e.startTrace({ target: ${JSON.stringify(topo.target.v4)}, packetType: '${packetType}', intervalSeconds: 0.05, timeoutMs: 500, maxTtl: 8, reverseDns: false });
          const rounds = [];
          await new Promise((resolve, reject) => {
            h.on('error', reject);
            h.on('round', (r) => { rounds.push(r); if (rounds.length === 4) resolve(); });
          });
          const threads = readdirSync('/proc/self/task').map((t) => readFileSync('/proc/self/task/' + t + '/comm', 'utf8').trim());
          await h.stop();
          await e.shutdown();
          const last = rounds[3]; // (stop() adds a marker round after it)
          console.log(JSON.stringify({ hops: last.hops.map((x) => x.address), reached: last.reachedTarget, threads }));`);
        const got = JSON.parse(out.trim()) as { hops: (string | null)[]; reached: boolean; threads: string[] };
        expect(got.hops).toEqual([topo.hop(1).v4, topo.hop(2).v4, topo.hop(3).v4, topo.target.v4]);
        expect(got.reached).toBe(true);
        expect(got.threads.includes(ProbeThread)).toBe(where === 'the probe worker');
      });
    }
  }

  it('says how to fix a missing CAP_NET_RAW', () => {
    const out = child(
      `const e = m.createInThreadRawEngine();
       try { await e.checkProbePermission(); console.log('OK'); } catch (err) { console.log(err.code + ': ' + err.message); }
       await e.shutdown();`,
      ['setpriv', '--bounding-set', '-net_raw', '--inh-caps', '-net_raw'],
    );
    expect(out.trim()).toBe(`NoRawSocketPermission: ${engine.NO_RAW_SOCKET_PERMISSION}`);
  });
});
