import { describe, expect, it } from 'vitest';
import { importFailureText, importUrl, importedText, isDataFile, progressText, uploadPercent } from './importFiles';

describe('Import PP2 File', () => {
  it('takes .pp2 files only, in any case', () => {
    expect(isDataFile('a.pp2')).toBe(true);
    expect(isDataFile('A.PP2')).toBe(true);
    expect(isDataFile('a.pp2.csv')).toBe(false);
    expect(isDataFile('pp2')).toBe(false);
  });

  it('posts to the summary, or without one for a new target', () => {
    expect(importUrl('12')).toBe('/api/data/ImportPP2File/12');
    expect(importUrl(undefined)).toBe('/api/data/ImportPP2File/');
  });

  it('says the spec failure texts, with the server message', () => {
    expect(importFailureText([])).toBeUndefined();
    expect(importFailureText([{ name: 'a.pp2' }])).toBe("Can't import file a.pp2");
    expect(importFailureText([{ name: 'a.pp2', message: 'truncated' }])).toBe("Can't import file a.pp2: truncated");
    expect(importFailureText([{ name: 'a.pp2' }, { name: 'b.txt', message: 'only .pp2' }])).toBe("Can't import files [a.pp2, b.txt: only .pp2]");
  });

  it('shows upload progress, then the import', () => {
    const p = { name: 'a.pp2', index: 0, count: 1, loaded: 450, total: 1000 };
    expect(uploadPercent(p)).toBe(45);
    expect(progressText(p)).toBe('Uploading a.pp2: 45%');
    expect(progressText({ ...p, loaded: 1000 })).toBe('Importing a.pp2...');
    expect(progressText({ ...p, index: 1, count: 3 })).toBe('Uploading a.pp2 (2 of 3): 45%');
    expect(importedText(['a.pp2'])).toBe('Imported a.pp2');
  });
});
