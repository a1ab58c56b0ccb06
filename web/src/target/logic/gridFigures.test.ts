import { describe, expect, it } from 'vitest';
import { figureCellText, NoSamplesText } from './gridFigures';

describe('grid figures over a window without samples', () => {
  it('says "no samples" in Avg and leaves the loss and error figures empty, not 0', () => {
    expect(figureCellText('Avg', '', 0)).toBe(NoSamplesText);
    expect(figureCellText('ErrCount', '0', 0)).toBe('');
    expect(figureCellText('PacketLoss', '0.0', 0)).toBe('');
    expect(figureCellText('Min', '', 0)).toBe('');
  });
  it('keeps the figures of a window with samples, and columns that are not window figures', () => {
    expect(figureCellText('ErrCount', '0', 12)).toBe('0');
    expect(figureCellText('Avg', '12.3', 12)).toBe('12.3');
    expect(figureCellText('Cur', '?', 0)).toBe('?');
    expect(figureCellText('IPAddress', '10.0.0.1', 0)).toBe('10.0.0.1');
  });
});
