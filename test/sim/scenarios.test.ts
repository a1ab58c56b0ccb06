// Runs every scenario file of test/sim/scenarios/ on the simulated engine (virtual time, no
// root) and checks each trace against the file's own `expect` section: responders per hop,
// loss within the stated tolerance, silent hops' code, reaching the target, route changes.
import { readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { RouteChange, SimExpectation, SimScenario, TraceRound } from '../../engine/index.js';
import { engine } from '../support/built.js';
import { collectRounds, hopStats } from '../netns/rounds.js';

const { createSimulatedEngine, loadScenarioFile, LatencyCode } = engine;

const dir = new URL('./scenarios/', import.meta.url);
const files = readdirSync(dir).filter((f) => /\.(ya?ml|json)$/.test(f)).sort();

interface Run {
  rounds: TraceRound[];
  changes: RouteChange[];
}

/** One simulated engine per expectation: its packet types trace the scenario at once. */
async function runExpectation(s: SimScenario, e: SimExpectation): Promise<Map<string, Run>> {
  const sim = createSimulatedEngine({ scenarios: [s] });
  const target = e.family === 4 ? s.target.v4! : s.target.v6!;
  const handles = e.packetTypes.map((packetType) => sim.startTrace({
    target, packetType, intervalSeconds: e.intervalSeconds ?? 1, timeoutMs: e.timeoutMs ?? 500, maxTtl: e.maxTtl ?? 30, reverseDns: false,
  }));
  try {
    const changes = handles.map((h) => {
      const seen: RouteChange[] = [];
      h.on('routeChange', (c) => seen.push(c));
      return seen;
    });
    const rounds = await Promise.all(handles.map((h) => collectRounds(h, e.rounds, 30_000)));
    return new Map(e.packetTypes.map((t, i) => [t, { rounds: rounds[i], changes: changes[i] }]));
  } finally {
    await Promise.all(handles.map((h) => h.stop()));
    await sim.shutdown();
  }
}

it('finds the scenario files', () => {
  expect(files.length).toBeGreaterThanOrEqual(5);
});

for (const file of files) {
  const s = loadScenarioFile(new URL(file, dir).pathname);
  describe(`scenario ${s.name} (${file})`, () => {
    it('says what a trace must show', () => {
      expect(s.expect?.length).toBeGreaterThan(0);
    });
    for (const e of s.expect ?? []) {
      for (const type of e.packetTypes) {
        describe(`${type} over IPv${e.family}`, () => {
          let run: Run;
          it('runs its rounds', async () => {
            run = (await runExpectation(s, e)).get(type)!;
            expect(run.rounds.length).toBe(e.rounds);
          });

          it(`reaches the target: ${e.reachedTarget}`, () => {
            const reached = run.rounds.filter((r) => r.reachedTarget).length;
            if (e.reachedTarget === 'all') expect(reached).toBe(e.rounds);
            if (e.reachedTarget === 'none') expect(reached).toBe(0);
            if (e.reachedTarget === 'most') expect(reached).toBeGreaterThan(e.rounds / 2);
          });

          it('shows the expected responder, loss and reply per hop', () => {
            const stats = hopStats(run.rounds);
            for (const h of e.hops) {
              const got = stats.get(h.ttl);
              expect(got, `hop ${h.ttl}`).toBeDefined();
              expect(got!.address, `address at hop ${h.ttl}`).toBe(h.address);
              if (h.lossPercent !== undefined) {
                expect(Math.abs(got!.loss * 100 - h.lossPercent), `loss at hop ${h.ttl}: ${got!.loss * 100}%`).toBeLessThanOrEqual(h.tolerancePercent ?? 0);
              }
              if (h.reply) {
                for (const r of run.rounds) {
                  const hop = r.hops.find((x) => x.ttl === h.ttl);
                  if (!hop || hop.reply === 'timeout' && h.reply !== 'timeout') continue;
                  expect(hop.reply, `reply at hop ${h.ttl}`).toBe(h.reply);
                  if (h.reply === 'timeout') expect(hop.rtt).toBe(LatencyCode.Timeout);
                }
              }
            }
            if (e.lastTtl !== undefined) {
              for (const r of run.rounds) expect(r.hops[r.hops.length - 1].ttl).toBe(e.lastTtl);
            }
          });

          it(e.routeChange ? 'reports the route change' : 'reports no route change', () => {
            if (!e.routeChange) return expect(run.changes).toEqual([]);
            expect(run.changes.map(({ ttl, previous, current }) => ({ ttl, previous, current }))).toEqual([e.routeChange]);
          });

          it('keeps its cadence: one round per interval, delivered in order with its start time (issue 16)', () => {
            const intervalMs = (e.intervalSeconds ?? 1) * 1000;
            for (let i = 1; i < run.rounds.length; i++) expect(run.rounds[i].time - run.rounds[i - 1].time).toBe(intervalMs);
          });

          it('gives answered hops their latency in float milliseconds', () => {
            for (const r of run.rounds) {
              for (const h of r.hops) if (h.reply !== 'timeout') expect(h.rtt).toBeGreaterThan(0), expect(h.rtt).toBeLessThan(e.timeoutMs ?? 500);
            }
          });
        });
      }
    }
  });
}

afterAll(() => {});
