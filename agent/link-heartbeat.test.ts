import { describe, expect, it } from 'vitest';
import { HeartbeatDeadAfterMs, HeartbeatIntervalMs, HeartbeatTickMs, HeartbeatTicker, heartbeatStep, silenceText } from './link-heartbeat.js';

describe('heartbeatStep', () => {
  const t0 = 1_800_000_000_000;

  it('pings once an interval and declares a silent link dead after two unanswered pings', () => {
    const peer = { lastHeard: t0, lastPing: t0 };
    const steps: [number, string][] = [];
    // A silent drop right after t0: nothing is heard again; the end pings when told to.
    for (let now = t0; now <= t0 + 30_000; now += HeartbeatTickMs) {
      const step = heartbeatStep(peer, now);
      if (step === 'ping') peer.lastPing = now;
      if (step !== 'wait') steps.push([now - t0, step]);
      if (step === 'dead') break;
    }
    expect(steps).toEqual([
      [HeartbeatIntervalMs, 'ping'],
      [2 * HeartbeatIntervalMs, 'ping'],
      [HeartbeatDeadAfterMs, 'dead'],
    ]);
    expect(silenceText(peer, t0 + HeartbeatDeadAfterMs)).toBe('nothing heard for 20 s (heartbeat)');
  });

  it('keeps a link that answers', () => {
    const peer = { lastHeard: t0, lastPing: t0 };
    for (let now = t0; now <= t0 + 120_000; now += HeartbeatTickMs) {
      const step = heartbeatStep(peer, now);
      expect(step).not.toBe('dead');
      if (step === 'ping') {
        peer.lastPing = now;
        peer.lastHeard = now + 5; // the pong
      }
    }
  });

  it('judges no silence at a tick after a stall of its own process', () => {
    const peer = { lastHeard: t0, lastPing: t0 };
    expect(heartbeatStep(peer, t0 + 60_000, false)).toBe('ping');
    const judged: boolean[] = [];
    const ticker = new HeartbeatTicker((_now, judge) => judged.push(judge));
    ticker.tick(t0);
    ticker.tick(t0 + HeartbeatTickMs);
    ticker.tick(t0 + HeartbeatTickMs + 40_000);
    ticker.tick(t0 + 2 * HeartbeatTickMs + 40_000);
    expect(judged).toEqual([false, true, false, true]);
  });
});
