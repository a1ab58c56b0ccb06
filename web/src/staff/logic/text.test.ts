import { describe, expect, it } from 'vitest';
import { agoText, eventKindText, healthText, ratingText, userAgentSummary } from './text';

describe('staff page wording', () => {
  it('names the browser and system of a user agent, or shows it shortened', () => {
    expect(userAgentSummary('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36')).toBe('Chrome 131 on Windows');
    expect(userAgentSummary('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe('Firefox 128 on Linux');
    expect(userAgentSummary('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15')).toBe('Safari 17 on macOS');
    expect(userAgentSummary('Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/130.0 Safari/537.36 Edg/130.0')).toBe('Edge 130 on Windows');
    expect(userAgentSummary('curl/8.5.0')).toBe('curl/8.5.0');
    expect(userAgentSummary('')).toBe('unknown');
    expect(userAgentSummary('x'.repeat(100))).toHaveLength(60);
  });

  it('words event kinds and ratings', () => {
    expect(eventKindText({ Kind: 'SignInFailed' })).toBe('Sign-in failed');
    expect(ratingText(6)).toBe('Thumbs up');
    expect(ratingText(1)).toBe('Very confusing');
    expect(ratingText(9)).toBe('9');
  });

  it('says how long ago and how healthy an engine is', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    expect(agoText(null, now)).toBe('never');
    expect(agoText('2026-11-25T11:59:50Z', now)).toBe('10 s ago');
    expect(agoText('2026-11-25T11:55:00Z', now)).toBe('5 min ago');
    expect(agoText('2026-11-23T12:00:00Z', now)).toBe('2 d ago');
    expect(healthText({ Id: 3, Connected: false, LastSeen: '2026-11-25T11:59:59Z' }, now)).toBe('Offline');
    expect(healthText({ Id: 3, Connected: true, LastSeen: '2026-11-25T11:50:00Z' }, now)).toBe('Stale');
    expect(healthText({ Id: 3, Connected: true, LastSeen: '2026-11-25T11:59:00Z' }, now)).toBe('Online');
    expect(healthText({ Id: -1, Connected: true, LastSeen: null }, now)).toBe('Online');
  });
});
