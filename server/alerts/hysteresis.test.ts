// Issue 41 item 7: alerts that do not flap. "2 of the last 10 lost" on a path losing 20% held
// and stopped holding every few seconds, and each change was a start or an end (30 webhooks in
// 10 minutes). For (the condition holds that long before the start) and Recover (it has not held
// for that long before the end), and start/end pairs at most once per minimum repeat, with what
// was held back summarised in the next message. Sample time decides: deterministic.
import { describe, expect, it } from 'vitest';
import { LatencyCode } from '../../engine/latency-codes.js';
import { AlertEvaluator, type Happening } from './evaluator.js';
import type { AlertRecord } from './repository.js';
import type { Condition } from '../contract/alerts.js';
import { alertRecord } from './testing/alert-record.js';
import { mailOf, substitute, type NotificationVariables } from './templates.js';

const T = LatencyCode.Timeout;
const alert = (condition: Condition, over: Partial<AlertRecord> = {}): AlertRecord => alertRecord(condition, { minRepeatSeconds: 300, recoverSeconds: 120, ...over });

/** mulberry32: the same seed gives the same losses every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One target sample per round (a one-hop trace), `stepMs` apart. */
function rounds(start: number, latencies: number[], stepMs = 2500) {
  return { time: latencies.map((_, i) => start + i * stepMs), hop: latencies.map(() => 1), latency: latencies };
}

const lossy = (n: number, percent: number, random: () => number) => Array.from({ length: n }, () => (random() * 100 < percent ? T : 5));
const events = (hs: Happening[]) => hs.map((h) => h.event);

describe('hysteresis: For and Recover', () => {
  const t0 = 1_800_000_000_000;
  const twoOfTen: Condition = { Kind: 'loss', Hop: 0, Samples: 10, Lost: 2 };

  it('a steady 20% loss starts once within two minutes, stays firing while it goes on, and ends once after it stopped', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const random = seeded(seed);
      // The evaluator's clock is the end of the test's sample time: nothing is stale.
      const ev = new AlertEvaluator({ maxStaleMs: 3_600_000, now: () => t0 + 20 * 60_000 });
      ev.load([alert(twoOfTen)], []);
      // 10 minutes of 20% loss at 2.5 s a round: 240 rounds, committed 8 at a time as ingest flushes them.
      const loss = lossy(240, 20, random);
      const during: Happening[] = [];
      for (let i = 0; i < loss.length; i += 8) during.push(...ev.committed(7, rounds(t0 + i * 2500, loss.slice(i, i + 8))).happenings);
      expect(events(during), `seed ${seed}`).toEqual(['start']);
      expect(during[0].time - t0, `seed ${seed}`).toBeLessThanOrEqual(120_000);
      expect(ev.firingTargets(1)).toEqual([7]);
      // The loss stops: 5 clean minutes. One end, once the condition has not held for 2 minutes.
      const cleanFrom = t0 + 240 * 2500;
      const after = ev.committed(7, rounds(cleanFrom, Array(120).fill(5))).happenings;
      expect(events(after), `seed ${seed}`).toEqual(['end']);
      // Exactly 2 minutes after the first round on which "2 of the last 10" stopped holding for good.
      const all = [...loss, ...Array(120).fill(5)];
      let lastHeld = -1;
      for (let i = 0; i < all.length; i++) if (all.slice(Math.max(0, i - 9), i + 1).filter((l) => l === T).length >= 2) lastHeld = i;
      expect(after[0].time).toBe(t0 + (lastHeld + 1) * 2500 + 120_000);
      expect(after[0].time).toBeGreaterThan(cleanFrom);
      expect(ev.firingTargets(1)).toEqual([]);
    }
  });

  it('without Recover the same loss flaps (what users got before)', () => {
    const ev = new AlertEvaluator({ maxStaleMs: 3_600_000, now: () => t0 + 20 * 60_000 });
    ev.load([alert(twoOfTen, { recoverSeconds: 0, minRepeatSeconds: 0 })], []);
    const hs = ev.committed(7, rounds(t0, lossy(240, 20, seeded(1)))).happenings;
    expect(hs.length).toBeGreaterThan(10);
  });

  it('For: the condition must hold that long before the start; a shorter burst starts nothing', () => {
    const ev = new AlertEvaluator({ maxStaleMs: 3_600_000, now: () => t0 + 20 * 60_000 });
    ev.load([alert({ Kind: 'loss', Hop: 0, Samples: 4, Lost: 2 }, { forSeconds: 30, recoverSeconds: 0 })], []);
    // A burst: holds from round 2 for 5 rounds (10 s of sample time), then clean.
    expect(ev.committed(7, rounds(t0, [5, T, T, T, 5, 5, 5, 5, 5, 5, 5, 5])).happenings).toEqual([]);
    expect(ev.firingTargets(1)).toEqual([]);
    // Steady loss: holds from its second round; the start comes once 30 s of holding passed.
    const from = t0 + 60_000;
    const hs = ev.committed(7, rounds(from, Array(30).fill(T))).happenings;
    expect(events(hs)).toEqual(['start']);
    expect(hs[0].time - (from + 2500)).toBe(30_000);
  });

  it('Recover: a short clean spell while firing does not end it', () => {
    const ev = new AlertEvaluator({ maxStaleMs: 3_600_000, now: () => t0 + 20 * 60_000 });
    ev.load([alert({ Kind: 'loss', Hop: 0, Samples: 2, Lost: 1 }, { recoverSeconds: 60, minRepeatSeconds: 0 })], []);
    expect(events(ev.committed(7, rounds(t0, [T])).happenings)).toEqual(['start']);
    // 50 s clean (the window clears after 2 rounds; 20 rounds of 2.5 s), then loss again: no end.
    expect(ev.committed(7, rounds(t0 + 2500, [...Array(20).fill(5), T])).happenings).toEqual([]);
    // Clean for good: the end comes 60 s after the condition stopped holding.
    const from = t0 + 22 * 2500;
    const end = ev.committed(7, rounds(from, Array(40).fill(5))).happenings;
    expect(events(end)).toEqual(['end']);
    // Stops holding at the second clean round (Samples 2), ends 60 s later.
    expect(end[0].time - (from + 2500)).toBe(60_000);
  });
});

describe('start/end pairs at most once per minimum repeat', () => {
  const t0 = 1_900_000_000_000;

  it('holds back a start within the repeat time and says in the next message how often it flapped', () => {
    const ev = new AlertEvaluator({ maxStaleMs: 3_600_000, now: () => t0 + 3_600_000 });
    // Recover 0: every change decides; minimum repeat 60 s.
    ev.load([alert({ Kind: 'loss', Hop: 0, Samples: 1, Lost: 1 }, { recoverSeconds: 0, minRepeatSeconds: 60 })], []);
    // Lost, answered, lost, answered... every 2.5 s for 20 s: one start and its end, then 3 pairs held back.
    const flapping = ev.committed(7, rounds(t0, [T, 5, T, 5, T, 5, T, 5])).happenings;
    expect(flapping.map((h) => [h.event, h.flapped])).toEqual([
      ['start', 0],
      ['end', 0],
    ]);
    // 60 s after the first start, a new start is sent with the summary.
    const later = ev.committed(7, rounds(t0 + 60_000, [T, 5])).happenings;
    expect(later.map((h) => [h.event, h.flapped])).toEqual([
      ['start', 3],
      ['end', 0],
    ]);
  });

  it('a held-back start that keeps holding is sent once the repeat time has passed', () => {
    const ev = new AlertEvaluator({ maxStaleMs: 3_600_000, now: () => t0 + 3_600_000 });
    ev.load([alert({ Kind: 'loss', Hop: 0, Samples: 1, Lost: 1 }, { recoverSeconds: 0, minRepeatSeconds: 60 })], []);
    expect(events(ev.committed(7, rounds(t0, [T, 5])).happenings)).toEqual(['start', 'end']);
    // Starts again 5 s later and keeps holding: held back, then sent at t0 + 60 s.
    const hs = ev.committed(7, rounds(t0 + 5000, Array(30).fill(T))).happenings;
    expect(hs.map((h) => [h.event, h.time - t0, h.flapped])).toEqual([['start', 60_000, 0]]);
    expect(ev.firingTargets(1)).toEqual([7]);
  });
});

describe('the held-back flaps in the message', () => {
  const v: NotificationVariables = { alert: 'Loss', event: 'start', condition: 'c', host: 'h', hop: '3', loss: '20.0', latency: '1.00', jitter: '0.10', mos: '4.30', time: 't', agent: 'a', link: '' };

  it('says how often it flapped in $eventWords, the mail and $flapped', () => {
    expect(substitute('$alert $eventWords', { ...v, flapped: '7' })).toBe('Loss started (flapped 7 times since the last message)');
    expect(substitute('$alert $eventWords ($flapped)', { ...v, flapped: '0' })).toBe('Loss started (0)');
    // Rows queued by an older version have no flapped.
    expect(substitute('$eventWords $flapped', v)).toBe('started 0');
    expect(mailOf({ ...v, event: 'end', flapped: '1' }).text).toContain('Event: ended (flapped 1 time since the last message)');
  });
});

describe('an agent link that comes and goes', () => {
  const t0 = 2_100_000_000_000;
  const away = alert({ Kind: 'agentOffline', Hop: 0, Samples: 1, OfflineSeconds: 60 }, { minRepeatSeconds: 300 });
  const offline = (since: number | undefined) => () => since;

  it('pages one start/end pair per minimum repeat; a start held back is sent once the repeat passed if the agent is still away', () => {
    const ev = new AlertEvaluator({ maxStaleMs: 300_000 });
    ev.load([away], []);
    expect(events(ev.checkAgents(t0 + 60_000, offline(t0)).happenings)).toEqual(['start']);
    expect(events(ev.checkAgents(t0 + 100_000, offline(undefined)).happenings)).toEqual(['end']);
    // Away again 10 s later: its T passes at +170 s, within 300 s of the start: held back.
    expect(ev.checkAgents(t0 + 170_000, offline(t0 + 110_000)).happenings).toEqual([]);
    expect(ev.firingTargets(1)).toEqual([7]);
    // Still away at the periodic check after the repeat time: the start now.
    const late = ev.checkAgents(t0 + 360_000, offline(t0 + 110_000)).happenings;
    expect(late.map((h) => [h.event, h.time - t0, h.flapped])).toEqual([['start', 360_000, 0]]);
  });
});
