import { describe, expect, it } from 'vitest';
import { freeSpaceDaysText, pendingChangesText } from './counts';

describe('settings counts (issue 41 item 5)', () => {
  it('"{n} changes pending" follows the plural rule', () => {
    expect(pendingChangesText(0)).toBe('0 changes pending');
    expect(pendingChangesText(1)).toBe('1 change pending');
    expect(pendingChangesText(2)).toBe('2 changes pending');
  });
  it('days are rounded, and more than 10 years says so', () => {
    expect(freeSpaceDaysText(null)).toBe('n/a (nothing stored in the last 24 hours)');
    expect(freeSpaceDaysText(455211.5)).toBe('more than 10 years');
    expect(freeSpaceDaysText(12.6)).toBe('13 days');
    expect(freeSpaceDaysText(1.2)).toBe('1 day');
    expect(freeSpaceDaysText(0.3)).toBe('less than a day');
    expect(freeSpaceDaysText(3650)).toBe('3,650 days');
  });
});
