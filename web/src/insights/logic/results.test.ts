import { describe, expect, it } from 'vitest';
import { WisdomResultEnum, type WisdomResult, type WisdomTestResult } from '../../../../server/contract/insights';
import { clampPanelWidth, decorationsFor, feedbackContext, groupResults, highlightBlocks, segmentPage } from './results';

const result = (TestID: number, ResultEnum: number, hosts: Partial<WisdomTestResult['WisdomHosts'][number]>[] = [], Description = ['d']): WisdomTestResult => ({
  TestID, TestTitle: `t${TestID}`, TestCategory: 1, Title: `T${TestID}`, Description, ReadMoreUrl: '/docs/insights/x.md', Stats: [], ResultEnum: ResultEnum as WisdomTestResult['ResultEnum'],
  WisdomHosts: hosts.map((h) => ({ Name: 'h', HopNumber: 1, UniqueID: '', RedHerringPacketLoss: false, RedHerringLatency: false, PearsonScore: null, HostID: '', ...h })),
  WisdomSegments: [], HopDetails: [],
});
const wisdom = (results: WisdomTestResult[]): WisdomResult => ({ TestedSegment: { TimeRange: { Start: '', End: '' }, Stats: [] }, Results: results });

describe('Insights panel logic', () => {
  it('groups Potential and Ruled Out Issues; data checks are hidden when they pass', () => {
    const g = groupResults(wisdom([result(1, 1), result(2, 1), result(200, 500, [{ HopNumber: 3 }]), result(202, 1), result(300, 1), result(301, 2)]));
    expect(g.potential.map((r) => r.TestID)).toEqual([200]);
    expect(g.ruledOut.map((r) => r.TestID)).toEqual([202, 300]);
    expect(g.notRunReasons).toEqual([]);
  });

  it('gives the reasons when the analysis did not run', () => {
    const g = groupResults(wisdom([result(1, 3, [], ['Too short.']), result(2, 3, [], ['Too few probes.'])]));
    expect(g.notRunReasons).toEqual(['Too short.', 'Too few probes.']);
    expect(g.potential).toEqual([]);
  });

  it('pages segments two at a time', () => {
    const seg = (i: number) => ({ TimeRange: { Start: String(i), End: String(i) }, Stats: [] });
    const all = [0, 1, 2, 3, 4].map(seg);
    expect(segmentPage(all, 0)).toMatchObject({ page: 0, pages: 3, shown: [seg(0), seg(1)] });
    expect(segmentPage(all, 2).shown).toEqual([seg(4)]);
    expect(segmentPage(all, 9).page).toBe(2);
    expect(segmentPage([], 0)).toMatchObject({ pages: 1, shown: [] });
  });

  it('highlights failing hosts, dims red herrings, and the target row for a host-less failure', () => {
    const d = decorationsFor(result(200, 500, [{ HopNumber: 3 }, { HopNumber: 4 }]), '7', 6);
    expect([...d]).toEqual([['7_h_3', 'Highlight'], ['7_h_4', 'Highlight']]);
    const rh = decorationsFor(result(202, 1, [{ HopNumber: 2, RedHerringPacketLoss: true }]), '7', 6);
    expect([...rh]).toEqual([['7_h_2', 'Diminish']]);
    expect([...decorationsFor(result(302, 1002), '7', 6)]).toEqual([['7_h_6', 'Highlight']]);
    expect(decorationsFor(null, '7', 6).size).toBe(0);
  });

  it('joins consecutive highlighted hops into blocks', () => {
    expect(highlightBlocks([5, 3, 4, 8])).toEqual([[3, 5], [8, 8]]);
  });

  it('clamps the panel width to 450..550 and carries the insight in the feedback context', () => {
    expect([clampPanelWidth(100), clampPanelWidth(500.4), clampPanelWidth(900), clampPanelWidth(NaN)]).toEqual([450, 500, 550, 450]);
    expect(JSON.parse(feedbackContext(result(200, 500)))).toMatchObject({ TestID: 200, TestTitle: 't200', Insight: { Title: 'T200' } });
  });
});
