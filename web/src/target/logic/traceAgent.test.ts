import { describe, expect, it } from 'vitest';
import type { ColumnDef } from '../../../../server/contract/targets';
import { graphAgent, isMultiAgent, traceAgent, traceColumnDefs } from './traceAgent';

const local = { ID: -1, Name: 'Local Machine', IsOnline: true };
const branch = { ID: 3, Name: 'Branch office', IsOnline: false };

describe('the agent of a target', () => {
  it('is named from the agent list, with its online state', () => {
    expect(traceAgent(3, [local, branch])).toEqual({ name: 'Branch office', offline: true });
    expect(traceAgent(-1, [local, branch], 'ignored')).toEqual({ name: 'Local Machine', offline: false });
  });
  it('falls back to the server name, then to its id, never marked offline when unknown', () => {
    expect(traceAgent(3, [local], 'Branch office')).toEqual({ name: 'Branch office', offline: false });
    expect(traceAgent(9, [local])).toEqual({ name: 'Agent 9', offline: false });
  });
  it('shows the Agent column and graph names only in multi-agent mode', () => {
    const defs = [{ Name: 'Hop' }, { Name: 'Agent' }, { Name: 'Avg' }] as ColumnDef[];
    expect(isMultiAgent([local])).toBe(false);
    expect(isMultiAgent([local, branch])).toBe(true);
    expect(traceColumnDefs(defs, false).map((d) => d.Name)).toEqual(['Hop', 'Avg']);
    expect(traceColumnDefs(defs, true).map((d) => d.Name)).toEqual(['Hop', 'Agent', 'Avg']);
    const a = { name: 'Branch office', offline: true };
    expect(graphAgent(a, true, false)).toBe(a);
    expect(graphAgent(a, false, false)).toBeNull();
    expect(graphAgent(a, true, true)).toBeNull();
  });
});
