import { describe, expect, it } from 'vitest';
import type { Session } from '../../../../server/contract/sessions';
import {
  DefaultSort,
  commandFailureText,
  commandSuccessText,
  deleteCountText,
  filterRows,
  nextSort,
  sessionColumns,
  sortRows,
  toRow,
} from './sessionRows';

const session = (id: number, over: Partial<Session> = {}): Session => ({
  SessionID: id,
  StartTime: '2026-01-05T08:00:00.000Z',
  EndTime: '2026-01-05T09:00:00.000Z',
  TargetDescription: '',
  TargetIP: `10.0.0.${id}`,
  TargetName: `t${id}.example.test`,
  PersistenceMode: 0,
  AdHocLoadCycles: 0,
  SampleCount: 100,
  OriginalTarget: '',
  State: 2,
  StateString: 'Closed',
  DynamicDnsMode: 0,
  SentinelID: null,
  HubSentinelID: null,
  HubSessionID: null,
  CollectorMode: 0,
  MagnetoID: null,
  CloudConnectAccountId: null,
  AgentName: 'Local Machine',
  Imported: false,
  ...over,
});
const iso = (h: number) => new Date(Date.UTC(2026, 0, 5, h)).toISOString();

describe('session rows', () => {
  it('has the Agent column only in multi-agent mode', () => {
    expect(sessionColumns(false).map((c) => c.title)).toEqual(['Target Name', 'Target IP', 'Dynamic DNS', 'Start', 'End', 'Samples', 'Status', 'Imported']);
    expect(sessionColumns(true).map((c) => c.title)).toContain('Agent');
  });

  it('shows "..." for a count not loaded yet and the Dynamic DNS texts', () => {
    expect(toRow(session(1, { SampleCount: -1 })).text.Samples).toBe('...');
    expect(toRow(session(1, { SampleCount: 12345 })).text.Samples).toBe('12,345');
    expect(toRow(session(1, { DynamicDnsMode: 1 })).text.DynamicDns).toBe('N/A (IP Address)');
    expect(toRow(session(1, { DynamicDnsMode: 0 })).text.DynamicDns).toBe('Following');
    expect(toRow(session(1, { EndTime: null })).text.End).toBe('');
  });

  it('formats Start and End only when read, once each, with the same texts', () => {
    const calls: number[] = [];
    const format = (ms: number) => (calls.push(ms), `t${ms}`);
    const rows = [session(1), session(2, { EndTime: null })].map((s) => toRow(s, format));
    sortRows(filterRows(rows, { TargetName: 't' }), DefaultSort);
    expect(calls).toEqual([]);
    expect(rows[0].text.Start).toBe(`t${Date.parse('2026-01-05T08:00:00.000Z')}`);
    expect(rows[0].text.End).toBe(`t${Date.parse('2026-01-05T09:00:00.000Z')}`);
    expect(rows[0].text.Start).toBe(rows[0].text.Start);
    expect(rows[1].text.End).toBe('');
    expect(calls).toHaveLength(2);
    expect(filterRows(rows, { Start: `t${Date.parse('2026-01-05T08:00:00.000Z')}` }).map((r) => r.id)).toEqual([1, 2]);
    expect(filterRows(rows, { End: 't' }).map((r) => r.id)).toEqual([1]);
  });

  it('sorts End descending by default, open sessions first, ties by id', () => {
    const rows = [session(1, { EndTime: iso(9) }), session(2, { EndTime: null, State: 0 }), session(3, { EndTime: iso(12) }), session(4, { EndTime: iso(9) })].map((s) => toRow(s));
    expect(sortRows(rows, DefaultSort).map((r) => r.id)).toEqual([2, 3, 4, 1]);
    expect(sortRows(rows, { key: 'End', descending: false }).map((r) => r.id)).toEqual([1, 4, 3, 2]);
  });

  it('sorts numbers as numbers', () => {
    const rows = [session(1, { SampleCount: 900 }), session(2, { SampleCount: 10_000 }), session(3, { SampleCount: 5 })].map((s) => toRow(s));
    expect(sortRows(rows, { key: 'Samples', descending: false }).map((r) => r.id)).toEqual([3, 1, 2]);
  });

  it('a header click sorts ascending, a second click turns the direction', () => {
    expect(nextSort(DefaultSort, 'TargetName')).toEqual({ key: 'TargetName', descending: false });
    expect(nextSort({ key: 'TargetName', descending: false }, 'TargetName')).toEqual({ key: 'TargetName', descending: true });
  });

  it('filters every column by contained text, case-insensitively', () => {
    const rows = [session(1), session(2, { TargetName: 'Gateway.example.test' }), session(3, { StateString: 'Paused', State: 1 })].map((s) => toRow(s));
    expect(filterRows(rows, { TargetName: 'gateway' }).map((r) => r.id)).toEqual([2]);
    expect(filterRows(rows, { Status: 'closed', TargetName: 'example' }).map((r) => r.id)).toEqual([1, 2]);
    expect(filterRows(rows, { Status: '  ' }).map((r) => r.id)).toEqual([1, 2, 3]);
  });

  it('says the spec texts', () => {
    expect(commandSuccessText('DELETE')).toBe('Successfully deleted session');
    expect(commandFailureText('OPEN', 'boom')).toBe('Error opening session: boom');
    expect(commandFailureText('EXPORT', 'x')).toBe('Error exporting session: x');
    expect(deleteCountText(3)).toBe('Delete 3');
  });
});

describe('issue 41 item 5: target name and Dynamic DNS', () => {
  it('a target without a name shows its host', () => {
    const r = toRow(session(7, { TargetName: '', OriginalTarget: 'example.net', TargetIP: '192.0.2.7' }));
    expect(r.text.TargetName).toBe('example.net');
    const ip = toRow(session(8, { TargetName: '', OriginalTarget: '', TargetIP: '192.0.2.8' }));
    expect(ip.text.TargetName).toBe('192.0.2.8');
    expect(ip.text.DynamicDns).toBe('N/A (IP Address)');
  });
  it('a literal IP target is not applicable for Dynamic DNS, whatever its mode', () => {
    expect(toRow(session(9, { OriginalTarget: '192.0.2.9', DynamicDnsMode: 0 })).text.DynamicDns).toBe('N/A (IP Address)');
    expect(toRow(session(10, { OriginalTarget: '2001:db8::1', DynamicDnsMode: 0 })).text.DynamicDns).toBe('N/A (IP Address)');
    expect(toRow(session(11, { OriginalTarget: 'example.net', DynamicDnsMode: 0 })).text.DynamicDns).toBe('Following');
  });
});

describe('issue 41 item 5: imported sessions and the Samples unit', () => {
  it('marks an imported session, and not the live one it came from', () => {
    expect(toRow(session(12, { Imported: true })).text.Imported).toBe('Imported');
    expect(toRow(session(13)).text.Imported).toBe('');
    expect(filterRows([toRow(session(12, { Imported: true })), toRow(session(13))], { Imported: 'imp' }).map((r) => r.id)).toEqual([12]);
  });
  it('says the Samples unit in the column tooltip', () => {
    expect(sessionColumns(false).find((c) => c.key === 'Samples')?.tooltip).toMatch(/one per probe.*hop/i);
  });
});
