import { describe, expect, it } from 'vitest';
import type { ColumnDef } from '../../../../server/contract/targets';
import { applyColumnPrefs } from '../../target/logic/columnPrefs';
import { summaryColumnDefs } from './summaryColumns';

const def = (Name: string, Visible: boolean) => ({ Name, Visible }) as ColumnDef;

describe('summary grid columns', () => {
  const defs = [def('DNSName', true), def('Agent', false), def('Avg', true)];
  it('has no Agent column with one agent', () => {
    expect(summaryColumnDefs(defs, false).map((d) => d.Name)).toEqual(['DNSName', 'Avg']);
  });
  it('leaves out Hop, so stored Summary-Columns do not bring it back', () => {
    const server = [{ ...def('Hop', false), CanChangeVisible: false }, { ...def('DNSName', true), CanChangeVisible: true }];
    const columns = applyColumnPrefs(summaryColumnDefs(server, false), [{ Name: 'DNSName', Width: 200 }]);
    expect(columns.map((c) => c.Name)).toEqual(['DNSName']);
  });
  it('shows the Agent column by default in multi-agent mode', () => {
    expect(summaryColumnDefs(defs, true).find((d) => d.Name === 'Agent')?.Visible).toBe(true);
  });
});
