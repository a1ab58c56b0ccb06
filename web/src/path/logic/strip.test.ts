import { describe, expect, it } from 'vitest';
import { changeMarks, stripBars, timeAt, xOf } from './strip';

const s = { startMs: 0, endMs: 600_000, width: 600 };

describe('the time strip', () => {
  it('places intervals and times across the width', () => {
    expect(xOf(s, 300_000)).toBe(300);
    expect(timeAt(s, 150)).toBe(150_000);
    expect(timeAt(s, -5)).toBe(0);
    const bars = stripBars(s, [{ Start: new Date(60_000).toISOString(), LossPercent: 5, LatencyMs: 10 }], 60);
    expect(bars).toEqual([{ x: 60, width: 60, lossPercent: 5, latencyMs: 10, startMs: 60_000 }]);
  });

  it('makes one mark per minute with route changes', () => {
    const c = (t: number, session: number) => ({ Time: new Date(t).toISOString(), SessionId: session, AgentName: 'a', TargetId: '1', Hop: 2, Old: ['x'], New: ['y'] });
    const marks = changeMarks(s, [c(120_000, 1), c(120_000, 2), c(300_000, 1)]);
    expect(marks.map((m) => [m.x, m.changes.length])).toEqual([
      [120, 2],
      [300, 1],
    ]);
  });
});
