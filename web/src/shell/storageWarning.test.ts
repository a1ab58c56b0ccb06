import { describe, expect, it } from 'vitest';
import { formatBytes, storageLevel, storageToast } from './storageWarning';

describe('storage warning', () => {
  it('levels at 90 and 98 percent', () => {
    expect(storageLevel(89.9)).toBe('ok');
    expect(storageLevel(90)).toBe('warn');
    expect(storageLevel(97.9)).toBe('warn');
    expect(storageLevel(98)).toBe('paused');
  });

  it('warns once per crossing, and again when it gets worse', () => {
    const first = storageToast('ok', 91.2, 5 * 1024 ** 3);
    expect(first.level).toBe('warn');
    expect(first.message).toBe('The data volume is 91.2% full (5.0 GB free). Storing pauses at 98%: free space, or shorten the retention in Settings > General.');
    expect(storageToast('warn', 93, 1e9).message).toBeUndefined();
    const worse = storageToast('warn', 98.5, 300 * 1024 ** 2);
    expect(worse.level).toBe('paused');
    expect(worse.message).toContain('new samples are not being stored');
    expect(storageToast('paused', 95, 1e9)).toEqual({ level: 'warn' });
    expect(storageToast('ok', 50, 1e12)).toEqual({ level: 'ok' });
  });

  it('formats bytes', () => {
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(250 * 1024 ** 3)).toBe('250 GB');
  });
});
