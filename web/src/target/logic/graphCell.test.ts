import { describe, expect, it } from 'vitest';
import { graphCellDrawing } from './graphCell';
import { LatencyCode } from '../../../../server/contract/latency';

const scale = { scaleMaxMs: 100, warnMs: 50, badMs: 80 };

describe('graphCellDrawing', () => {
  it('places min, avg and max on the shared scale and colours by the average', () => {
    expect(graphCellDrawing({ Minimum: 10, Average: 20, Maximum: 40, PL: 15 }, scale, 200)).toEqual({
      kind: 'latency', minX: 20, avgX: 40, maxX: 80, overflow: false, colour: 'Good', lossWidthPx: 100,
    });
    expect(graphCellDrawing({ Minimum: 50, Average: 60, Maximum: 70, PL: 0 }, scale, 100)).toMatchObject({ colour: 'Warn' });
  });
  it('clips at the scale and flags the overflow', () => {
    expect(graphCellDrawing({ Minimum: 70, Average: 90, Maximum: 300, PL: 45 }, scale, 100)).toMatchObject({
      maxX: 100, overflow: true, colour: 'Bad', lossWidthPx: 100,
    });
  });
  it('shows "*" for a timeout and N/A or ? for other codes', () => {
    expect(graphCellDrawing({ Minimum: null, Average: LatencyCode.Timeout, Maximum: null, PL: 100 }, scale, 100)).toEqual({
      kind: 'text', text: '*', lossWidthPx: 100,
    });
    expect(graphCellDrawing({ Minimum: null, Average: LatencyCode.Pending, Maximum: null, PL: 0 }, scale, 100)).toMatchObject({ text: '?' });
    expect(graphCellDrawing({ Minimum: null, Average: LatencyCode.NotParticipating, Maximum: null, PL: 0 }, scale, 100)).toMatchObject({ text: 'N/A' });
  });
  it('draws nothing without data; special min/max fall back to the average', () => {
    expect(graphCellDrawing({ Minimum: null, Average: null, Maximum: null, PL: null }, scale, 100)).toEqual({ kind: 'empty', lossWidthPx: 0 });
    expect(graphCellDrawing({ Minimum: LatencyCode.Timeout, Average: 30, Maximum: LatencyCode.Timeout, PL: 0 }, scale, 100)).toMatchObject({
      minX: 30, avgX: 30, maxX: 30,
    });
  });
});
