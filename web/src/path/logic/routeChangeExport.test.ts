import { describe, expect, it } from 'vitest';
import type { PathRouteChange } from '../../../../server/contract/path-view';
import { beforeAfterRanges, changedNodes, routeChangesCsv, routeChangesJson } from './routeChangeExport';

const change: PathRouteChange = { Time: '2026-11-29T14:05:00.000Z', SessionId: 3, AgentName: 'Branch, "East"', TargetId: '3', Hop: 2, Old: ['10.0.0.1'], New: ['10.0.0.2', '10.0.0.3'] };

describe('route changes export', () => {
  it('writes CSV with a header and quotes text with commas and quotes', () => {
    expect(routeChangesCsv([change], () => 'svc')).toBe('Time,Agent,Target,Hop,Old,New\r\n2026-11-29T14:05:00.000Z,"Branch, ""East""",svc,2,10.0.0.1,10.0.0.2 10.0.0.3\r\n');
  });

  it('quotes a cell a spreadsheet would run as a formula', () => {
    expect(routeChangesCsv([{ ...change, AgentName: '=cmd()' }], () => 'svc')).toContain('"=cmd()"');
  });

  it('writes JSON with the same fields', () => {
    expect(JSON.parse(routeChangesJson([change], () => 'svc'))).toEqual([{ Time: change.Time, Agent: change.AgentName, Target: 'svc', TargetId: '3', Hop: 2, Old: change.Old, New: change.New }]);
  });

  it('compares up to 10 minutes before the change minute with up to 10 after it', () => {
    const m = Date.parse(change.Time);
    expect(beforeAfterRanges(m)).toEqual({ before: { startMs: m - 600_000, endMs: m }, after: { startMs: m + 60_000, endMs: m + 660_000 } });
  });

  it('names the nodes only one side has', () => {
    const d = changedNodes([{ Id: 'a' }, { Id: 'b' }], [{ Id: 'a' }, { Id: 'c' }]);
    expect([...d.removed]).toEqual(['b']);
    expect([...d.added]).toEqual(['c']);
  });
});
