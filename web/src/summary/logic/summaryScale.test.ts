import { describe, expect, it } from 'vitest';
import { fixedScaleOf, rowScaleSetting, summaryScaleSetting } from './summaryScale';

const scales = new Map([
  ['Default', 0],
  ['WAN', 250],
  ['Also WAN', 250],
  ['Follow', -2],
]);

describe('summary graph scale', () => {
  it('gives each target\'s graph its own configuration\'s Scale', () => {
    expect(rowScaleSetting('Default', scales)).toBe(0);
    expect(rowScaleSetting('WAN', scales)).toBe(250);
    expect(fixedScaleOf(rowScaleSetting('Default', scales))).toBeNull();
    expect(fixedScaleOf(rowScaleSetting('WAN', scales))).toBe(250);
    expect(fixedScaleOf(-2)).toBeNull();
  });
  it('uses the default 100 ms until the configurations are known', () => {
    expect(rowScaleSetting('Unknown', scales)).toBe(100);
    expect(rowScaleSetting(undefined, new Map())).toBe(100);
  });
  it('gives the grid the Scale the rows share, else Automatic', () => {
    expect(summaryScaleSetting(['Default', 'Default'], scales)).toBe(0);
    expect(summaryScaleSetting(['WAN', 'Also WAN'], scales)).toBe(250);
    expect(summaryScaleSetting(['WAN', 'Default'], scales)).toBe(0);
    expect(summaryScaleSetting(['Follow'], scales)).toBe(-2);
    expect(summaryScaleSetting([], scales)).toBe(0);
  });
});
