import { describe, expect, it } from 'vitest';
import { MinGridPx, paneHeights, splitterFraction, tickSpacingMs, timelineGraphHeight } from './timelineLayout';

describe('timelineGraphHeight', () => {
  it('is (container - 29 per graph) / graphs', () => {
    expect(timelineGraphHeight(658, 2)).toBe(300);
    expect(timelineGraphHeight(229, 1)).toBe(200);
    expect(timelineGraphHeight(1000, 3)).toBe(304); // (1000 - 87) / 3 = 304.33
  });
  it('is never below 136 (a 120 px plot and the comment strip)', () => {
    expect(timelineGraphHeight(300, 5)).toBe(136);
    expect(timelineGraphHeight(0, 1)).toBe(136);
  });
  it('is 0 with no graphs', () => expect(timelineGraphHeight(500, 0)).toBe(0));
});

describe('splitterFraction', () => {
  it('reads a stored fraction, defaulting to 0.7', () => {
    expect(splitterFraction('0.45')).toBe(0.45);
    for (const v of [null, undefined, '', 'abc', '0', '1', '1.5', '-0.2']) expect(splitterFraction(v)).toBe(0.7);
  });
});

describe('tickSpacingMs', () => {
  it('keeps labels apart using steps from 5 s to 36 h', () => {
    expect(tickSpacingMs(60_000, 1000)).toBe(5_000); // 5 s = 83 px
    expect(tickSpacingMs(600_000, 1000)).toBe(60_000); // 30 s would be 50 px
    expect(tickSpacingMs(86_400_000, 1000)).toBe(2 * 3_600_000); // 83 px
    expect(tickSpacingMs(30 * 86_400_000, 1000)).toBe(36 * 3_600_000);
  });
});

describe('paneHeights', () => {
  it('gives the grid its share when one graph fits below', () => {
    expect(paneHeights(808, 8, 0.7, 1)).toEqual({ gridHeight: 560, graphsHeight: 240 });
  });
  it('leaves the graphs room for one whole graph (issue 41 item 9: 1024x700 left them 15-50 px)', () => {
    // 400 px of panes: 0.7 would leave 118 px; one graph needs 136 + 29.
    expect(paneHeights(408, 8, 0.7, 1)).toEqual({ gridHeight: 235, graphsHeight: 165 });
  });
  it('keeps the grid at its minimum however small the panes', () => {
    expect(paneHeights(208, 8, 0.7, 3)).toEqual({ gridHeight: MinGridPx, graphsHeight: 110 });
  });
  it('gives the grid only what its rows need (the summary), the rest to the graphs', () => {
    expect(paneHeights(608, 8, 0.7, 3, 160)).toEqual({ gridHeight: 160, graphsHeight: 440 });
  });
  it('gives the grid everything but the splitter when there is no graph', () => {
    expect(paneHeights(408, 8, 0.7, 0)).toEqual({ gridHeight: 280, graphsHeight: 120 });
  });
});
