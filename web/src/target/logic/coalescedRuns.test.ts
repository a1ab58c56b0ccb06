import { describe, expect, it } from 'vitest';
import { coalescedRuns } from './coalescedRuns';

/** A job whose runs finish when the test says so. */
function controlled() {
  const finish: (() => void)[] = [];
  let started = 0;
  const run = () => {
    started++;
    return new Promise<void>((resolve) => finish.push(resolve));
  };
  const settle = async () => {
    finish.shift()?.();
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { run, settle, started: () => started };
}

describe('coalescedRuns', () => {
  it('runs at once when idle', () => {
    const c = controlled();
    coalescedRuns(c.run).request();
    expect(c.started()).toBe(1);
  });

  it('runs once more after the current run, however often it was asked meanwhile', async () => {
    const c = controlled();
    const runs = coalescedRuns(c.run);
    runs.request();
    runs.request();
    runs.request();
    runs.request();
    expect(c.started()).toBe(1);
    await c.settle();
    expect(c.started()).toBe(2);
    await c.settle();
    expect(c.started()).toBe(2);
  });

  it('is idle again after a run nobody asked to repeat', async () => {
    const c = controlled();
    const runs = coalescedRuns(c.run);
    runs.request();
    await c.settle();
    runs.request();
    expect(c.started()).toBe(2);
  });

  it('goes on after a failed or throwing run', async () => {
    let calls = 0;
    const runs = coalescedRuns(() => {
      calls++;
      if (calls === 1) throw new Error('sync');
      return Promise.reject(new Error('async'));
    });
    runs.request();
    for (let i = 0; i < 5; i++) await Promise.resolve();
    runs.request();
    runs.request();
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(calls).toBe(3);
  });

  it('starts nothing after stop, not even a run asked for before it', async () => {
    const c = controlled();
    const runs = coalescedRuns(c.run);
    runs.request();
    runs.request();
    runs.stop();
    await c.settle();
    runs.request();
    expect(c.started()).toBe(1);
  });
});
