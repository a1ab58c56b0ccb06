// The Insights panel (spec 3 sections 2.3 and 4.1), on the right of the target window:
// loading, then the opt-in invitation until the user opted in, then the main view (title,
// Refresh, tips, target and dataset lines, "Testing: {title}", Potential Issues and Ruled
// Out Issues or the reasons it did not run). Data and state live in the hooks beside it.
import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { Flag } from '../../../server/contract/account';
import type { HopDetail, WisdomSegment, WisdomTestResult } from '../../../server/contract/insights';
import { Modal } from '../components/Modal';
import { currentUserAtom } from '../state/user';
import { FeedbackDialog } from './FeedbackDialog';
import { decorationsFor, groupResults, type RowDecoration } from './logic/results';
import { ResultCard } from './ResultCard';
import { TargetDetailsDialog } from './TargetDetailsDialog';
import { useHideTip } from './useHideTip';
import { useOptIn } from './useOptIn';
import { useWisdomRun } from './useWisdomRun';

export interface InsightsPanelProps {
  targetId: string;
  targetName: string;
  /** The last hop row (the target's), for results about the target. */
  lastHop: number;
  width: number;
  onWidth: (w: number) => void;
  onClose: () => void;
  /** The graphs' current stats range (Refresh runs on it). */
  statsRange: { startMs: number; endMs: number };
  onSelectRange: (startMs: number, endMs: number) => void;
  onDecorations: (d: Map<string, RowDecoration>) => void;
  /** Run at once with the default 12-hour range (navigation state or after an import). */
  autoRun: boolean;
}

export function InsightsPanel(p: InsightsPanelProps) {
  const user = useAtomValue(currentUserAtom);
  const includeDetails = !!user?.Flags.includes(Flag.InsightDetail);
  const opt = useOptIn(true);
  const tip = useHideTip(true);
  const wisdom = useWisdomRun(p.targetId, opt.state === 'optedIn', includeDetails);
  const [feedback, setFeedback] = useState<WisdomTestResult | null>(null);
  const [details, setDetails] = useState<HopDetail | null>(null);
  const [modal, setModal] = useState<WisdomTestResult | null>(null);
  const grouped = groupResults(wisdom.result);

  // Auto-run once the user is opted in; the graphs then focus on the range, not live.
  const autoRan = useRef(false);
  useEffect(() => {
    if (!p.autoRun || autoRan.current || opt.state !== 'optedIn') return;
    autoRan.current = true;
    void wisdom.autoRun().then((range) => range && p.onSelectRange(Date.parse(range.Start), Date.parse(range.End)));
  }, [p.autoRun, opt.state, wisdom, p]);

  const refresh = () => void wisdom.run({ Start: new Date(p.statsRange.startMs).toISOString(), End: new Date(p.statsRange.endMs).toISOString() });
  const onSegment = (s: WisdomSegment) => p.onSelectRange(Date.parse(s.TimeRange.Start), Date.parse(s.TimeRange.End));
  const onHover = (r: WisdomTestResult | null) => p.onDecorations(decorationsFor(r, p.targetId, p.lastHop));
  const showTip = !tip.hidden && !(wisdom.result && tip.hideWithResults);
  const card = (r: WisdomTestResult) => (
    <ResultCard key={r.TestID} targetId={p.targetId} result={r} onHover={onHover} onSegment={onSegment} onFeedback={setFeedback} onDetails={setDetails} onOpenModal={setModal} />
  );

  // Dragging the left edge sets the width (450..550 px, kept per session).
  const startResize = (e: React.MouseEvent) => {
    const x0 = e.clientX;
    const w0 = p.width;
    const move = (ev: MouseEvent) => p.onWidth(w0 + (x0 - ev.clientX));
    const up = () => {
      window.removeEventListener('mousemove', move);
      window.removeEventListener('mouseup', up);
    };
    window.addEventListener('mousemove', move);
    window.addEventListener('mouseup', up);
  };

  return (
    <aside className="insights-panel" style={{ width: p.width }} data-testid="insights-panel" aria-label="Insights">
      <div className="insights-resize" onMouseDown={startResize} title="Drag to resize" />
      <header className="insights-header">
        <h2>
          Insights <span className="beta">Beta</span>
        </h2>
        <button type="button" className="icon-button" aria-label="Close Insights" onClick={p.onClose}>
          ×
        </button>
      </header>
      {opt.state === 'loading' ? (
        <p className="insights-loading">Loading…</p>
      ) : opt.state === 'invited' ? (
        <section className="insights-optin">
          <h3>Join the Insights early access</h3>
          <p>Insights analyse this target's trace data and point at the hop where a problem starts. They are new: join the early access and, in return, tell us when a result helped or confused you.</p>
          <div className="modal-actions">
            <button type="button" className="button secondary" onClick={p.onClose}>No Thanks</button>
            <button type="button" className="button primary" onClick={opt.optIn}>Yes, I will help!</button>
          </div>
        </section>
      ) : (
        <section className="insights-main">
          <div className="insights-toolbar">
            <button type="button" className="button primary" disabled={wisdom.running} onClick={refresh}>Refresh</button>
            <button type="button" className="link-button" onClick={tip.reset}>Getting Started Tips</button>
          </div>
          {!wisdom.result && !wisdom.running && <p className="hint">Choose a time range in the graphs and click the Refresh button to run the tests on it.</p>}
          <p className="insights-line">Target: {p.targetName}</p>
          {wisdom.range && (
            <p className="insights-line">
              Dataset: {new Date(wisdom.range.Start).toLocaleString()} – {new Date(wisdom.range.End).toLocaleString()}{' '}
              <button type="button" className="link-button" onClick={() => p.onSelectRange(Date.parse(wisdom.range!.Start), Date.parse(wisdom.range!.End))}>show</button>
            </p>
          )}
          {showTip && (
            <div className="insights-tips" data-testid="insights-tips">
              <h3>Insight Tips</h3>
              <h4>Getting Started</h4>
              <p>Pick a time range where users had trouble (drag or zoom the graphs, or choose a Focus), then click Refresh. Potential Issues name the hop where a problem starts; hover one to see its hops in the grid. Ruled Out Issues are what the tests checked and found fine.</p>
              <label className="check">
                <input type="checkbox" checked={tip.hideWithResults} onChange={(e) => tip.setHideWithResults(e.target.checked)} /> Don't show tip when displaying results
              </label>
              <button type="button" className="button secondary" onClick={tip.hide}>Hide Tip</button>
            </div>
          )}
          {wisdom.running && <p className="insights-testing" role="status">Testing: {wisdom.testing}</p>}
          {!wisdom.running && wisdom.result && (
            grouped.notRunReasons.length > 0 ? (
              <div className="insights-not-run">
                <h3>The tests did not run</h3>
                <ul>
                  {grouped.notRunReasons.map((r) => (
                    <li key={r}>{r}</li>
                  ))}
                </ul>
              </div>
            ) : (
              <>
                <h3>Potential Issues</h3>
                {grouped.potential.length ? grouped.potential.map(card) : grouped.summary ? card(grouped.summary) : <p className="hint">None found.</p>}
                <h3>Ruled Out Issues</h3>
                {grouped.ruledOut.map(card)}
              </>
            )
          )}
        </section>
      )}
      {feedback && <FeedbackDialog targetId={p.targetId} result={feedback} onClose={() => setFeedback(null)} />}
      {details && <TargetDetailsDialog detail={details} onClose={() => setDetails(null)} />}
      {modal && (
        <Modal title={modal.TestTitle} onClose={() => setModal(null)} width={560}>
          <div className="modal-body">
            <ResultCard targetId={p.targetId} result={modal} onHover={() => undefined} onSegment={onSegment} onFeedback={setFeedback} onDetails={setDetails} />
          </div>
        </Modal>
      )}
    </aside>
  );
}
