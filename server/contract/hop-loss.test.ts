import { describe, expect, it } from 'vitest';
import { lossNotOnPath, pathLossFindings, type HopLoss } from './hop-loss.js';

const hop = (n: number, lossPercent: number, answered = lossPercent < 100): HopLoss => ({ hop: n, lossPercent, answered });

describe('loss that does not carry on is not loss on the path', () => {
  it('a router that never answers while later hops do is silent', () => {
    const path = [hop(1, 0), hop(2, 100), hop(3, 0), hop(4, 0)];
    expect(lossNotOnPath(path, 4)).toEqual(new Map([[2, 'Silent']]));
    expect(pathLossFindings(path, 4).start).toBeUndefined();
  });

  it('silent hops at the end of an unreachable path are not muted (nothing after them answers)', () => {
    const path = [hop(1, 0), hop(2, 0), hop(3, 100), hop(4, 100)];
    expect(lossNotOnPath(path, null).size).toBe(0);
  });

  it('a hop that sent nothing is not silent', () => {
    expect(lossNotOnPath([hop(1, NaN, false), hop(2, 0)], 2).size).toBe(0);
  });

  it('loss that does not carry on (ICMP rate limiting) is a red herring', () => {
    const path = [hop(1, 0), hop(2, 40), hop(3, 0), hop(4, 0.5)];
    expect(lossNotOnPath(path, 4)).toEqual(new Map([[2, 'NotCarriedOn']]));
  });

  it('loss that carries on to every later answering hop is loss on the path, shown as is', () => {
    // Router 2 silent, router 3 drops 20% of what it forwards (issue 41's test network).
    const path = [hop(1, 0), hop(2, 100), hop(3, 20), hop(4, 19), hop(5, 21)];
    const f = pathLossFindings(path, 5);
    expect(f.start?.hop).toBe(3);
    expect(lossNotOnPath(path, 5)).toEqual(new Map([[2, 'Silent']]));
  });

  it('the last answering hop short of an unreachable target is judged neither way', () => {
    const path = [hop(1, 0), hop(2, 30), hop(3, 100)];
    expect(lossNotOnPath(path, null).size).toBe(0);
    expect(pathLossFindings(path, null).start).toBeUndefined();
  });
});
