import { describe, expect, it } from 'vitest';
import { inFlightLimit } from './inFlight';

/** A call that ends when the test says so. */
function deferred() {
  let resolve!: (v: number) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<number>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('inFlightLimit', () => {
  it('runs at most max calls at once and starts the waiting ones in order as calls end', async () => {
    const limit = inFlightLimit(2);
    const calls = Array.from({ length: 5 }, () => deferred());
    const started: number[] = [];
    const answers = calls.map((d, i) =>
      limit(() => {
        started.push(i);
        return d.promise;
      }),
    );
    answers[0].catch(() => undefined); // asserted below; handled now so its rejection is not reported as unhandled
    await tick();
    expect(started).toEqual([0, 1]);
    calls[1].resolve(11);
    await tick();
    expect(started).toEqual([0, 1, 2]);
    calls[0].reject(new Error('refused'));
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    calls[2].resolve(12);
    calls[3].resolve(13);
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    calls[4].resolve(14);
    await expect(answers[0]).rejects.toThrow('refused');
    expect(await Promise.all(answers.slice(1))).toEqual([11, 12, 13, 14]);
  });

  it('frees the place of a call that throws before giving a promise', async () => {
    const limit = inFlightLimit(1);
    await expect(limit(() => { throw new Error('bad arguments'); })).rejects.toThrow('bad arguments');
    expect(await limit(() => Promise.resolve(7))).toBe(7);
  });
});
