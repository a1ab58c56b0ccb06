import { describe, expect, it } from 'vitest';
import type { TargetDetails } from '../../../../server/contract/targets';
import { targetHeadingText } from './targetHeading';

const details = (d: Partial<TargetDetails>): TargetDetails =>
  ({ TargetDescription: '', TargetDNSName: '', TargetIPAddress: '', ...d }) as TargetDetails;

describe('targetHeadingText', () => {
  it('names the screen before a target is known', () => {
    expect(targetHeadingText({ notFound: false, details: null })).toBe('New target');
    expect(targetHeadingText({ targetId: '7', notFound: true, details: null })).toBe('Target 7 not found');
    expect(targetHeadingText({ targetId: '7', notFound: false, details: null })).toBe('Loading…');
  });

  it('shows a description that says more than the address', () => {
    expect(targetHeadingText({ targetId: '7', notFound: false, details: details({ TargetDescription: 'Branch router', TargetIPAddress: '10.0.0.1' }) })).toBe('Branch router');
  });

  it('shows name (address), else the address', () => {
    expect(targetHeadingText({ targetId: '7', notFound: false, details: details({ TargetDescription: 'r.example', TargetDNSName: 'r.example', TargetIPAddress: '10.0.0.1' }) })).toBe(
      'r.example (10.0.0.1)',
    );
    expect(targetHeadingText({ targetId: '7', notFound: false, details: details({ TargetDescription: '10.0.0.1', TargetIPAddress: '10.0.0.1' }) })).toBe('10.0.0.1');
  });
});
