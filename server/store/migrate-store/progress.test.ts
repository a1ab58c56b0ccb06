import { describe, expect, it } from 'vitest';
import { ProgressBar, duration } from './progress.js';

function sink(isTTY: boolean) {
  const out = { text: '', isTTY, write: (s: string) => (out.text += s) };
  return out;
}

describe('migrate-store progress', () => {
  it('says rows, percent, MB of the source, the rate and the time left', () => {
    let now = 0;
    const out = sink(false);
    const bar = new ProgressBar({ totalRows: 1_000_000, doneRows: 0, totalBytes: 200e6, out, everyMs: 5000, now: () => now });
    now = 10_000;
    bar.add(250_000);
    expect(out.text).toBe('migrate-store: 250,000 of 1,000,000 rows 25% 50.0 of 200.0 MB, 5.0 MB/s, 30 s left\n');
  });

  it('counts a resumed run from its own start: rows copied before are done, not part of the rate', () => {
    let now = 0;
    const out = sink(false);
    const bar = new ProgressBar({ totalRows: 1_000_000, doneRows: 500_000, totalBytes: 100e6, out, everyMs: 0, now: () => now });
    now = 5000;
    bar.add(100_000);
    expect(out.text).toBe('migrate-store: 600,000 of 1,000,000 rows 60% 60.0 of 100.0 MB, 2.0 MB/s, 20 s left\n');
  });

  it('writes a line every everyMs into a log, and redraws one line on a terminal', () => {
    let now = 0;
    const log = sink(false);
    const a = new ProgressBar({ totalRows: 100, doneRows: 0, totalBytes: 1e6, out: log, everyMs: 5000, now: () => now });
    for (let i = 0; i < 10; i++) {
      now += 1000;
      a.add(10);
    }
    expect(log.text.split('\n').filter(Boolean)).toHaveLength(2); // at 1 s and at 6 s
    const tty = sink(true);
    const b = new ProgressBar({ totalRows: 100, doneRows: 0, totalBytes: 1e6, out: tty, everyMs: 5000, now: () => now });
    b.add(10);
    b.add(10); // within 200 ms: not redrawn
    now += 200;
    b.add(10);
    expect(tty.text.match(/\r/g)).toHaveLength(2);
    expect(tty.text).not.toContain('\n');
    b.finish();
    expect(tty.text.endsWith('\n')).toBe(true);
  });

  it('does not guess the time left from the first few rows', () => {
    let now = 0;
    const out = sink(false);
    const bar = new ProgressBar({ totalRows: 1_000_000, doneRows: 0, totalBytes: 1e6, out, everyMs: 0, now: () => now });
    now = 100;
    bar.add(1);
    expect(out.text).toContain('time left: measuring');
  });

  it('writes durations as an operator reads them', () => {
    expect([duration(12_000), duration(190_000), duration(3_720_000)]).toEqual(['12 s', '3 min 10 s', '1 h 02 min']);
  });
});
