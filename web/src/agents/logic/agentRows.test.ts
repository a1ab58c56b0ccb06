import { describe, expect, it } from 'vitest';
import { capacityToast, filterRows, overview, overviewTargetsText, shortVersion, sortRows, toRow, type AgentRowSource } from './agentRows';

const a = (over: Partial<AgentRowSource>): AgentRowSource => ({ ID: 1, Name: 'x', UniqueID: 'u', IsOnline: false, Configured: true, ...over });

describe('agent rows', () => {
  it('drops the last dotted segment of the version', () => {
    expect(shortVersion('0.1.0.7')).toBe('0.1.0');
    expect(shortVersion('5')).toBe('5');
    expect(shortVersion(undefined)).toBe('');
  });

  it('derives PENDING, ONLINE and OFFLINE, the mode and the OS', () => {
    expect(toRow(a({ Configured: false })).status).toBe('PENDING');
    expect(toRow(a({ IsOnline: true, Mode: 2 }))).toMatchObject({ status: 'ONLINE', mode: 'APP' });
    expect(toRow(a({ Mode: 1, Platform: 2 }))).toMatchObject({ status: 'OFFLINE', mode: 'SERVICE', os: 'MAC' });
    expect(toRow(a({ Platform: 0 })).os).toBe('UNKNOWN');
  });

  it('orders online first, then by name; a chosen column sorts by itself', () => {
    const rows = [a({ ID: 1, Name: 'b' }), a({ ID: 2, Name: 'a' }), a({ ID: 3, Name: 'c', IsOnline: true })].map((x) => toRow(x));
    expect(sortRows(rows).map((r) => r.name)).toEqual(['c', 'a', 'b']);
    expect(sortRows(rows, { key: 'name', descending: true }).map((r) => r.name)).toEqual(['c', 'b', 'a']);
    expect(filterRows(rows, 'ONL').map((r) => r.name)).toEqual(['c']);
  });

  it('counts the overview over the agents the table shows, the Local Machine included', () => {
    const o = overview([a({ ID: -1, IsOnline: true }), a({ ID: 1, IsOnline: true }), a({ ID: 2 }), a({ ID: 3, Configured: false })], { ActiveTraces: 5, EntitledTraces: 10, UncountedLocalMachineTraces: 3 });
    expect(o).toEqual({ activeTargets: 5, entitled: 10, tracePercent: 50, uncountedLocalTargets: 3, online: 2, offline: 1, pending: 1, onlinePercent: 50 });
  });

  it('issue 41 item 4: Linux is named, and the Local Machine shows its version, start and OS', () => {
    expect(toRow(a({ Platform: 3 })).os).toBe('LINUX');
    const local = toRow(a({ ID: -1, IsOnline: true, Platform: 3, OsDescription: 'Debian GNU/Linux 12 (bookworm)', Version: '1.4.0', LastMessageUnixTime: 100 }), (ms) => `t${ms}`);
    expect(local).toMatchObject({ os: 'LINUX (Debian GNU/Linux 12 (bookworm))', version: '1.4.0', lastConnected: 't100000' });
    expect(overviewTargetsText(overview([a({ ID: -1, IsOnline: true })], { ActiveTraces: 0, EntitledTraces: 100, UncountedLocalMachineTraces: 4 }))).toBe(
      '0 of 100 Active Targets on agents; 4 on the Local Machine (not counted)',
    );
    expect(overviewTargetsText(overview([], { ActiveTraces: 2, EntitledTraces: 100, UncountedLocalMachineTraces: 0 }))).toBe('2 of 100 Active Targets');
  });

  it('words the capacity toasts of spec 1 section 8', () => {
    expect(capacityToast({ ActiveTraces: 10, EntitledTraces: 10 }, true)).toBe(
      "Looks like you're running all 10 of your CloudConnect traces. You can manage your traces in the CloudConnect tab",
    );
    expect(capacityToast({ ActiveTraces: 9, EntitledTraces: 10 }, false)).toBe(
      "You're running 9 of 10 remote traces. You can manage your traces or upgrade your capacity in the Agent tab",
    );
    expect(capacityToast({ ActiveTraces: 3, EntitledTraces: 10 }, true)).toBeUndefined();
  });
});
