import { describe, expect, it } from 'vitest';
import type { ColumnDef } from '../../../../server/contract/targets';
import { summaryColumnDefs } from './summaryColumns';

const def = (Name: string, Visible: boolean) => ({ Name, Visible }) as ColumnDef;

describe('summary grid columns', () => {
  const defs = [def('DNSName', true), def('Agent', false), def('Avg', true)];
  it('has no Agent column with one agent', () => {
    expect(summaryColumnDefs(defs, false).map((d) => d.Name)).toEqual(['DNSName', 'Avg']);
  });
  it('shows the Agent column by default in multi-agent mode', () => {
    expect(summaryColumnDefs(defs, true).find((d) => d.Name === 'Agent')?.Visible).toBe(true);
  });
});
