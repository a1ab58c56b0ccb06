// The evaluator and conditions on hand-made commits: start and end once, backfill, repeats,
// the target hop, and the templates' substitution.
import { describe, expect, it } from 'vitest';
import { LatencyCode } from '../../engine/latency-codes.js';
import { AlertEvaluator, lastHopOfRounds } from './evaluator.js';
import { meanOpinionScore, SampleWindow, holds } from './conditions.js';
import type { AlertRecord } from './repository.js';
import { escapeHtml, mailOf, webhookBody, type NotificationVariables } from './templates.js';
import type { Condition } from '../contract/alerts.js';
import { alertRecord } from './testing/alert-record.js';

const T = LatencyCode.Timeout;
// The rules at each evaluation; For and Recover are in hysteresis.test.ts.
const alert = (condition: Condition, over: Partial<AlertRecord> = {}): AlertRecord => alertRecord(condition, { minRepeatSeconds: 0, ...over });

/** Rounds of a 3-hop trace: one latency per round at the target (hop 3), hops 1-2 answer 1 ms. */
function rounds(start: number, targetLatencies: number[], stepMs = 1000) {
  const time: number[] = [];
  const hop: number[] = [];
  const latency: number[] = [];
  targetLatencies.forEach((l, i) => {
    for (const [h, v] of [[1, 1], [2, 1], [3, l]] as const) {
      time.push(start + i * stepMs);
      hop.push(h);
      latency.push(v);
    }
  });
  return { time, hop, latency };
}

describe('the evaluator', () => {
  const now = 1_000_000_000;
  const loss = alert({ Kind: 'loss', Hop: 0, Samples: 5, Lost: 2 });

  it('starts once when the condition begins to hold and ends once when it stops', () => {
    const ev = new AlertEvaluator({ maxStaleMs: 300_000, now: () => now });
    ev.load([loss], []);
    const first = ev.committed(7, rounds(now - 20_000, [5, 5, T, 5, T, T, 5]));
    expect(first.happenings.map((h) => h.event)).toEqual(['start']);
    expect(first.happenings[0].hop).toBe(3);
    expect(first.happenings[0].figures.loss).toBe(40);
    expect(first.states).toMatchObject([{ firing: true, notifiedStart: true }]);
    expect(ev.firingTargets(1)).toEqual([7]);
    // Still holding: no new start. Then five clean rounds: one end.
    expect(ev.committed(7, rounds(now - 10_000, [T, 5])).happenings).toEqual([]);
    const end = ev.committed(7, rounds(now - 8_000, [5, 5, 5, 5, 5, 5, 5]));
    expect(end.happenings.map((h) => h.event)).toEqual(['end']);
    expect(ev.firingTargets(1)).toEqual([]);
    // Other targets are not watched.
    expect(ev.committed(8, rounds(now, [T, T, T])).happenings).toEqual([]);
  });

  it('backfilled samples older than the stale limit change the state but notify no start, nor its end', () => {
    const ev = new AlertEvaluator({ maxStaleMs: 300_000, now: () => now });
    ev.load([loss], []);
    const old = ev.committed(7, rounds(now - 3_600_000, [T, T, T, T, T]));
    expect(old.happenings).toEqual([]);
    expect(old.states).toMatchObject([{ firing: true, notifiedStart: false }]);
    const recovered = ev.committed(7, rounds(now - 1000, [5, 5, 5, 5, 5]));
    expect(recovered.happenings).toEqual([]);
    expect(recovered.states).toMatchObject([{ firing: false }]);
  });

  it('a stored firing state is not started again after a restart', () => {
    const ev = new AlertEvaluator({ maxStaleMs: 300_000, now: () => now });
    ev.load([loss], [{ alertId: 1, sessionId: 7, firing: true, since: now - 60_000, notifiedStart: true }]);
    expect(ev.firingTargets(1)).toEqual([7]);
    expect(ev.committed(7, rounds(now - 5000, [T, T, T, T, T])).happenings).toEqual([]);
    expect(ev.committed(7, rounds(now, [5, 5, 5, 5, 5])).happenings.map((h) => h.event)).toEqual(['end']);
  });

  it('holds and notHolds repeat at most once per minimum repeat time', () => {
    const ev = new AlertEvaluator({ maxStaleMs: 300_000, now: () => now });
    ev.load([alert({ Kind: 'latency', Hop: 2, Samples: 2, ThresholdMs: 0.5 }, { events: ['holds'], minRepeatSeconds: 5 })], []);
    const r = ev.committed(7, rounds(now - 20_000, Array(20).fill(3)));
    // Hop 2 answers 1 ms > 0.5: holds from the second round, every 5 s of sample time.
    expect(r.happenings.map((h) => h.time - (now - 20_000))).toEqual([1000, 6000, 11000, 16000]);
    expect(r.happenings.every((h) => h.event === 'holds' && h.hop === 2)).toBe(true);
  });

  it('forgets a removed alert', () => {
    const ev = new AlertEvaluator({ maxStaleMs: 300_000, now: () => now });
    ev.load([loss], []);
    expect(ev.watches(7)).toBe(true);
    ev.remove(1);
    expect(ev.watches(7)).toBe(false);
    expect(ev.committed(7, rounds(now, [T, T, T, T, T])).happenings).toEqual([]);
  });
});

describe('conditions', () => {
  it('the last hop of each round is the target', () => {
    expect(lastHopOfRounds({ time: [2, 2, 1, 1, 1], hop: [1, 2, 1, 2, 3], latency: [1, 2, 3, 4, 5] })).toEqual([
      { time: 1, hop: 3, latency: 5 },
      { time: 2, hop: 2, latency: 2 },
    ]);
  });

  it('latency percentiles, jitter and MOS over a window', () => {
    const w = new SampleWindow(4);
    for (const v of [10, 20, T, 40, 30]) w.push(v);
    expect(w.ordered()).toEqual([20, T, 40, 30]);
    expect(w.average()).toBe(30);
    expect(w.percentile(50)).toBe(30);
    expect(w.jitter()).toBe(15);
    expect(holds({ Kind: 'latency', Hop: 0, Samples: 4, ThresholdMs: 35, Statistic: 'p90' }, w)).toBe(true);
    expect(holds({ Kind: 'jitter', Hop: 0, Samples: 4, ThresholdMs: 20 }, w)).toBe(false);
    expect(meanOpinionScore(20, 1, 0)).toBeGreaterThan(4.3);
    expect(meanOpinionScore(300, 50, 10)).toBeLessThan(3);
    expect(holds({ Kind: 'unreachable', Hop: 0, Samples: 4 }, w)).toBe(false);
  });
});

describe('templates', () => {
  const v: NotificationVariables = {
    alert: 'A "quoted" <script>alert(1)</script>',
    event: 'start',
    condition: 'c',
    host: 'evil", "injected": "yes',
    hop: '3',
    loss: '40.0',
    latency: '1.25',
    jitter: '0.10',
    mos: '4.30',
    time: '2026-11-25T01:00:00.000Z',
    agent: 'Local Machine',
    link: 'http://x/targets/7',
  };

  it('substitutes variables inside JSON strings only: a value cannot add keys', () => {
    const body = JSON.parse(webhookBody('custom', '{"text":"$host lost $loss% at $time","n":5}', v));
    expect(body).toEqual({ text: 'evil", "injected": "yes lost 40.0% at 2026-11-25T01:00:00.000Z', n: 5 });
  });

  it('has presets for Slack, Teams, Discord, ntfy and Gotify', () => {
    expect(Object.keys(JSON.parse(webhookBody('slack', undefined, v)))).toEqual(['text']);
    expect(JSON.parse(webhookBody('discord', '', v)).content).toContain('started on evil');
    expect(JSON.parse(webhookBody('teams', '', v))['@type']).toBe('MessageCard');
    expect(JSON.parse(webhookBody('ntfy', '', v)).topic).toBe('hopwatch');
    expect(JSON.parse(webhookBody('gotify', '', v)).priority).toBe(5);
  });

  it('escapes every value in the mail HTML', () => {
    const m = mailOf(v);
    expect(m.html).not.toContain('<script>');
    expect(m.html).toContain(escapeHtml(v.alert));
    expect(m.subject).toBe('[Hopwatch] A "quoted" <script>alert(1)</script> started on evil", "injected": "yes');
  });
});

describe('changing an alert', () => {
  it('adding a target keeps the others firing; a new condition starts afresh', () => {
    const now = 1_000_000_000;
    const ev = new AlertEvaluator({ maxStaleMs: 300_000, now: () => now });
    const a = alert({ Kind: 'loss', Hop: 0, Samples: 5, Lost: 2 });
    ev.load([a], []);
    expect(ev.committed(7, rounds(now - 5000, [T, T, 5, 5, 5])).happenings.map((h) => h.event)).toEqual(['start']);
    ev.put({ ...a, targets: [7, 8] });
    expect(ev.committed(7, rounds(now - 1000, [T])).happenings).toEqual([]);
    expect(ev.firingTargets(1)).toEqual([7]);
    ev.put({ ...a, targets: [7, 8], condition: { Kind: 'loss', Hop: 0, Samples: 5, Lost: 3 } });
    expect(ev.firingTargets(1)).toEqual([]);
  });
});

describe('agent offline for more than T', () => {
  const t0 = 2_000_000_000;
  const away = alert({ Kind: 'agentOffline', Hop: 0, Samples: 1, OfflineSeconds: 60 }, { targets: [7, 8] });
  /** Target 7 is on the agent that went away at `since`; target 8's agent is connected. */
  const offline = (since: number | undefined) => (s: number) => (s === 7 ? since : undefined);

  it('starts once T after the agent went away, on its targets only, and ends when it is back', () => {
    const ev = new AlertEvaluator({ maxStaleMs: 300_000 });
    ev.load([away], []);
    expect(ev.watchesAgents).toBe(true);
    expect(ev.checkAgents(t0 + 59_999, offline(t0)).happenings).toEqual([]);
    expect(ev.nextAgentDue(offline(t0))).toBe(t0 + 60_000);
    const start = ev.checkAgents(t0 + 60_000, offline(t0));
    expect(start.happenings.map((h) => [h.event, h.sessionId, h.from])).toEqual([['start', 7, t0]]);
    expect(ev.firingTargets(1)).toEqual([7]);
    expect(ev.nextAgentDue(offline(t0))).toBeUndefined();
    expect(ev.checkAgents(t0 + 120_000, offline(t0)).happenings).toEqual([]);
    const end = ev.checkAgents(t0 + 130_000, offline(undefined));
    expect(end.happenings.map((h) => [h.event, h.sessionId])).toEqual([['end', 7]]);
    expect(ev.firingTargets(1)).toEqual([]);
  });

  it('keeps a stored firing state across a restart until the agent is back', () => {
    const ev = new AlertEvaluator({ maxStaleMs: 300_000 });
    ev.load([away], [{ alertId: 1, sessionId: 7, firing: true, since: t0, notifiedStart: true }]);
    // The server just started: the agent counts as away from now, under T, still firing.
    expect(ev.checkAgents(t0 + 1000, offline(t0 + 1000)).happenings).toEqual([]);
    expect(ev.firingTargets(1)).toEqual([7]);
    expect(ev.checkAgents(t0 + 2000, offline(undefined)).happenings.map((h) => h.event)).toEqual(['end']);
  });

  it('is not decided by samples, and an alert that stops watching drops out of the check', () => {
    const ev = new AlertEvaluator({ maxStaleMs: 300_000 });
    ev.load([away], []);
    expect(ev.committed(7, rounds(t0, [T, T, T])).happenings).toEqual([]);
    ev.remove(1);
    expect(ev.watchesAgents).toBe(false);
    expect(ev.checkAgents(t0 + 600_000, offline(t0)).happenings).toEqual([]);
  });
});
