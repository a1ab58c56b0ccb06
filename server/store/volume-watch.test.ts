// volume-watch.ts through its seam: the warning at 90%, the pause at 98% with a reason, and
// the resume once space is freed.
import { describe, expect, it } from 'vitest';
import { checkVolume } from './volume-watch.js';

describe('checkVolume', () => {
  it('warns at 90%, pauses at 98% and resumes below 97%', async () => {
    let used = 50;
    const lines: string[] = [];
    const pauses: (string | undefined)[] = [];
    const o = {
      path: '/data',
      volume: async () => ({ totalBytes: 1000, freeBytes: 1000 - used * 10 }),
      log: { warn: (_: object, m: string) => lines.push(`warn ${m}`), info: (_: object, m: string) => lines.push(`info ${m}`), error: (_: object, m: string) => lines.push(`error ${m}`) },
      pause: (reason: string | undefined) => pauses.push(reason),
    };
    let state = await checkVolume(o, { warned: false, paused: false });
    expect(lines).toEqual([]);
    used = 91;
    state = await checkVolume(o, state);
    state = await checkVolume(o, state); // once, not at every look
    expect(lines).toEqual([expect.stringMatching(/^warn storage: the data volume is 91% full/)]);
    used = 98.5;
    state = await checkVolume(o, state);
    expect(pauses).toEqual([expect.stringMatching(/^Ingest is paused: the data volume is 98.5% full/)]);
    used = 97.5; // not yet: no flapping at the edge
    state = await checkVolume(o, state);
    expect(pauses).toHaveLength(1);
    used = 80;
    state = await checkVolume(o, state);
    expect(pauses).toEqual([expect.any(String), undefined]);
    expect(lines.at(-1)).toMatch(/^info storage: ingest resumed/);
    expect(state).toEqual({ warned: false, paused: false });
  });
});
