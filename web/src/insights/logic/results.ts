// Pure views of a WisdomResult for the panel: Potential Issues, Ruled Out Issues, the
// reasons when the analysis did not run, the segment pager, and the grid decorations a
// hovered result asks for (spec 3 section 4.1).
import { InsufficientDataTests, isPotentialIssue, isRuledOut, WisdomResultEnum, type WisdomResult, type WisdomSegment, type WisdomTestResult } from '../../../../server/contract/insights';

export interface GroupedResults {
  potential: WisdomTestResult[];
  ruledOut: WisdomTestResult[];
  /** Why the analysis did not run (empty when it ran). */
  notRunReasons: string[];
  /** NoInsightsIdentified, when nothing was found. */
  summary: WisdomTestResult | undefined;
}

export function groupResults(r: WisdomResult | null): GroupedResults {
  const results = r?.Results ?? [];
  const notRun = results.filter((x) => InsufficientDataTests.includes(x.TestID) && x.ResultEnum === WisdomResultEnum.Fail);
  if (notRun.length) return { potential: [], ruledOut: [], notRunReasons: notRun.flatMap((x) => x.Description), summary: undefined };
  const visible = results.filter((x) => !InsufficientDataTests.includes(x.TestID));
  return {
    potential: visible.filter((x) => isPotentialIssue(x.ResultEnum)),
    ruledOut: visible.filter((x) => isRuledOut(x.ResultEnum)),
    notRunReasons: [],
    summary: visible.find((x) => x.ResultEnum === WisdomResultEnum.NoInsightsIdentified),
  };
}

/** The segment pager shows this many segments at a time (spec 3 section 9). */
export const SegmentsPerPage = 2;

export function segmentPage(segments: WisdomSegment[], page: number): { shown: WisdomSegment[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(segments.length / SegmentsPerPage));
  const p = Math.min(Math.max(0, page), pages - 1);
  return { shown: segments.slice(p * SegmentsPerPage, (p + 1) * SegmentsPerPage), page: p, pages };
}

export type RowDecoration = 'Highlight' | 'Diminish';

/**
 * Hovering a result: its hosts are highlighted when it failed, red-herring hops are dimmed;
 * a failing result without hosts is about the target (its last row). Highlighted hops
 * that follow each other form one contiguous block (the same decoration on adjacent rows).
 */
export function decorationsFor(r: WisdomTestResult | null, targetId: string, lastHop: number): Map<string, RowDecoration> {
  const out = new Map<string, RowDecoration>();
  if (!r) return out;
  const failing = isPotentialIssue(r.ResultEnum);
  for (const h of r.WisdomHosts) {
    const rowId = `${targetId}_h_${h.HopNumber}`;
    if (h.RedHerringPacketLoss || h.RedHerringLatency) out.set(rowId, 'Diminish');
    else if (failing) out.set(rowId, 'Highlight');
  }
  if (failing && r.WisdomHosts.length === 0 && lastHop > 0) out.set(`${targetId}_h_${lastHop}`, 'Highlight');
  return out;
}

/** Contiguous blocks of highlighted hop numbers: [first, last] pairs (for the block border). */
export function highlightBlocks(hops: number[]): [number, number][] {
  const sorted = [...new Set(hops)].sort((a, b) => a - b);
  const blocks: [number, number][] = [];
  for (const h of sorted) {
    const last = blocks.at(-1);
    if (last && h === last[1] + 1) last[1] = h;
    else blocks.push([h, h]);
  }
  return blocks;
}

/** Feedback context: the test id, its title and the insight (spec 3 "Feedback"). */
export function feedbackContext(r: WisdomTestResult): string {
  return JSON.stringify({ TestID: r.TestID, TestTitle: r.TestTitle, Insight: { Title: r.Title, Description: r.Description, ResultEnum: r.ResultEnum } });
}

/** Panel width bounds (spec 3 section 2.3). */
export const PanelMinWidth = 450;
export const PanelMaxWidth = 550;
export const clampPanelWidth = (w: number) => (Number.isFinite(w) ? Math.min(PanelMaxWidth, Math.max(PanelMinWidth, Math.round(w))) : PanelMinWidth);
