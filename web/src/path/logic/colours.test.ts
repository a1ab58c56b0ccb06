import { describe, expect, it } from 'vitest';
import { edgeColour, edgeWidth, nodeTone } from './colours';
import { LatencyColours } from '../../target/colours';

describe('Path view colours', () => {
  it('colours a node by the loss that starts there, and never a muted one red', () => {
    expect(nodeTone({ LossStartPercent: 25, MutedLoss: null })).toBe('heavyLoss');
    expect(nodeTone({ LossStartPercent: 3, MutedLoss: null })).toBe('loss');
    expect(nodeTone({ LossStartPercent: null, MutedLoss: 'NotCarriedOn' })).toBe('muted');
    expect(nodeTone({ LossStartPercent: null, MutedLoss: 'Silent' })).toBe('muted');
    expect(nodeTone({ LossStartPercent: null, MutedLoss: null })).toBe('plain');
  });

  it('colours an edge by the latency it adds and widens it with how often it was seen', () => {
    expect(edgeColour(100)).toBe(LatencyColours.Bad);
    expect(edgeColour(30)).toBe(LatencyColours.Warn);
    expect(edgeColour(2)).not.toBe(LatencyColours.Warn);
    expect(edgeWidth(1, 1)).toBe(1.5);
    expect(edgeWidth(100, 100)).toBeCloseTo(7);
    expect(edgeWidth(10, 100)).toBeLessThan(edgeWidth(50, 100));
  });
});
