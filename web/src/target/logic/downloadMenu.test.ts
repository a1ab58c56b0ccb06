import { describe, expect, it } from 'vitest';
import { downloadItems, fileStem, retentionNote } from './downloadMenu';

const view = { startMs: Date.UTC(2026, 0, 5, 8), endMs: Date.UTC(2026, 0, 5, 9) };
const focus = { startMs: Date.UTC(2026, 0, 5, 8, 59), endMs: Date.UTC(2026, 0, 5, 9) };

describe('download menu', () => {
  it('offers the data file whole and of the view, and the CSV and JSON reports of the focus', () => {
    const items = downloadItems('7', 'gw.example.test', view, focus);
    expect(items.map((i) => i.label)).toEqual([
      'Data file (.pp2), whole target',
      'Data file (.pp2), the graph view',
      'Hop report of the focus (CSV)',
      'Hop report of the focus (JSON)',
      'Samples of the focus (CSV)',
      'Samples of the focus (JSON)',
    ]);
    expect(items[0].url).toBe('/api/data/DownloadPP2File?ID=7');
    const v = new URL(items[1].url, 'http://x').searchParams;
    expect([v.get('BeginTime'), v.get('EndTime')]).toEqual(['2026-01-05T08:00:00.000Z', '2026-01-05T09:00:00.000Z']);
    const h = new URL(items[3].url, 'http://x');
    expect(h.pathname).toBe('/api/data/HopReport');
    expect(h.searchParams.get('Format')).toBe('json');
    expect(h.searchParams.get('BeginTime')).toBe('2026-01-05T08:59:00.000Z');
    expect(items[3].fileName).toBe('gw.example.test-hops.json');
    expect(new URL(items[4].url, 'http://x').searchParams.get('Format')).toBe('csv');
  });

  it('makes a file name of any target text', () => {
    expect(fileStem('../etc/passwd')).toBe('etc_passwd');
    expect(fileStem('"<x>"')).toBe('x_');
    expect(fileStem('')).toBe('target');
  });

  it('notes a range older than raw retention', () => {
    const fmt = (ms: number) => new Date(ms).toISOString();
    const kept = Date.UTC(2026, 0, 5, 8, 30);
    expect(retentionNote(30, kept, Date.UTC(2026, 0, 5, 8, 40), { startMs: kept + 1, endMs: kept + 2 })).toBeNull();
    expect(retentionNote(30, kept, Date.UTC(2026, 0, 5, 8), { startMs: kept + 1, endMs: kept + 2 }, fmt)).toBe(
      'Raw samples are kept 30 days: a data file or samples report holds none before 2026-01-05T08:30:00.000Z (the graphs still show the older rollups).',
    );
    expect(retentionNote(1, kept, null, view, fmt)).toContain('kept 1 day:');
  });
});
