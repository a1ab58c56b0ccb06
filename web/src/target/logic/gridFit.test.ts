import { describe, expect, it } from 'vitest';
import { GraphColumnMinPx, graphColumnWidth } from './gridFit';

const others = [45, 60, 130, 220, 60, 60]; // 575

describe('graphColumnWidth', () => {
  it('keeps the preferred width when it fits (it grows from there)', () => {
    expect(graphColumnWidth(1200, others, 300)).toBe(300);
  });
  it('takes what the other columns leave when the pane is narrow (1024 px window)', () => {
    expect(graphColumnWidth(770, others, 300)).toBe(195);
  });
  it('never goes below the minimum: the grid scrolls sideways then', () => {
    expect(graphColumnWidth(600, others, 300)).toBe(GraphColumnMinPx);
  });
  it('keeps a readable Graph column when many columns are shown (Hosts, MPLS...): the grid scrolls instead', () => {
    expect(graphColumnWidth(1100, [...others, 150, 200, 120, 100], 300)).toBe(180);
  });
  it('uses the preferred width while the pane is not measured', () => {
    expect(graphColumnWidth(0, others, 300)).toBe(300);
  });
});
