import { describe, expect, it } from 'vitest';
import { HubEventActions, HubPushedEvents, sessionsVersionAtom, summaryListVersionAtom } from './hubEvents';

describe('hub event handlers', () => {
  it('cover every event the server pushes (spec 3 section 7.5)', () => {
    expect(Object.keys(HubEventActions).sort()).toEqual([...HubPushedEvents].sort());
  });
  it('reload the sidebar summaries on SummaryListChanged and SessionsChanged, the sessions on SessionsChanged', () => {
    expect(HubEventActions.SummaryListChanged).toEqual({ kind: 'bump', atoms: [summaryListVersionAtom] });
    const sessions = HubEventActions.SessionsChanged;
    expect(sessions.kind === 'bump' && sessions.atoms).toEqual([sessionsVersionAtom, summaryListVersionAtom]);
  });
});
