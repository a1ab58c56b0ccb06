import { describe, expect, it } from 'vitest';
import { documentTitle } from './documentTitle';

describe('documentTitle', () => {
  it('puts the screen name first', () => {
    expect(documentTitle('example.org (93.184.216.34)')).toBe('example.org (93.184.216.34) - Hopwatch');
    expect(documentTitle(' Sessions ')).toBe('Sessions - Hopwatch');
  });
  it('is the product name alone without a screen name', () => {
    expect(documentTitle('')).toBe('Hopwatch');
    expect(documentTitle(undefined)).toBe('Hopwatch');
  });
});
