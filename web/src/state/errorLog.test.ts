import { describe, expect, it } from 'vitest';
import { ErrorLogKey, ErrorLogMaxChars, appendErrorLog, capErrorLog, errorLogJson, parseErrorLog, type ErrorLogEntry } from './errorLog';

const entry = (i: number, size = 10): ErrorLogEntry => ({ Time: `t${i}`, Message: `${i}:`.padEnd(size, 'x') });

class MemoryStorage {
  map = new Map<string, string>();
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.map.set(key, value);
  }
}

describe('Error_Log capping', () => {
  it('keeps a log that fits untouched', () => {
    const entries = [entry(1), entry(2), entry(3)];
    expect(capErrorLog(entries, 10_000)).toEqual(entries);
  });

  it('drops the older half, repeatedly, until it fits, keeping the newest', () => {
    const entries = Array.from({ length: 16 }, (_, i) => entry(i, 40));
    const one = JSON.stringify([entry(0, 40)]).length - 2; // one entry's text
    // Room for about five entries: 16 -> 8 -> 4.
    const capped = capErrorLog(entries, one * 5 + 10);
    expect(capped.map((e) => e.Time)).toEqual(['t12', 't13', 't14', 't15']);
  });

  it('drops a single entry larger than the cap', () => {
    expect(capErrorLog([entry(1, 500)], 100)).toEqual([]);
  });

  it('caps at 1,048,576 characters by default', () => {
    expect(ErrorLogMaxChars).toBe(1_048_576);
    const big = Array.from({ length: 40 }, (_, i) => entry(i, 60_000));
    const capped = capErrorLog(big);
    expect(JSON.stringify(capped).length).toBeLessThanOrEqual(1_048_576);
    expect(capped.length).toBe(10); // 40 -> 20 (~1.2 M characters, still over) -> 10
    expect(capped.at(-1)!.Time).toBe('t39');
  });

  it('appends to storage under Error_Log and survives a corrupt value', () => {
    const storage = new MemoryStorage();
    storage.setItem(ErrorLogKey, 'not json');
    appendErrorLog(storage, entry(1));
    appendErrorLog(storage, entry(2));
    expect(parseErrorLog(storage.getItem(ErrorLogKey)).map((e) => e.Time)).toEqual(['t1', 't2']);
    expect(JSON.parse(errorLogJson(storage))).toHaveLength(2);
  });

  it('keeps the stored text within the cap when appending', () => {
    const storage = new MemoryStorage();
    for (let i = 0; i < 50; i++) appendErrorLog(storage, entry(i, 100), 1000);
    const text = storage.getItem(ErrorLogKey)!;
    expect(text.length).toBeLessThanOrEqual(1000);
    expect(parseErrorLog(text).at(-1)!.Time).toBe('t49');
  });
});
