// One result: title, description lines, Read More (the test's page), Feedback and This
// Helped, the stats strip, the segment pager (2 at a time; a click focuses the graphs on
// the segment) and the hops (a click opens Target Details). Hovering it decorates the grid.
import { useState } from 'react';
import { FeedbackRating, isPotentialIssue, type HopDetail, type WisdomSegment, type WisdomTestResult } from '../../../server/contract/insights';
import { addFeedback } from './api';
import { feedbackContext, segmentPage } from './logic/results';
import { FeedbackThanks } from './FeedbackDialog';

export interface ResultCardProps {
  targetId: string;
  result: WisdomTestResult;
  onHover: (r: WisdomTestResult | null) => void;
  onSegment: (s: WisdomSegment) => void;
  onFeedback: (r: WisdomTestResult) => void;
  onDetails: (d: HopDetail) => void;
  onOpenModal?: (r: WisdomTestResult) => void;
}

const time = (iso: string) => new Date(iso).toLocaleString();

export function ResultCard({ targetId, result, onHover, onSegment, onFeedback, onDetails, onOpenModal }: ResultCardProps) {
  const [page, setPage] = useState(0);
  const [helped, setHelped] = useState(false);
  const segments = result.WisdomSegments.flat();
  const pager = segmentPage(segments, page);
  const failing = isPotentialIssue(result.ResultEnum);
  const thisHelped = () => {
    setHelped(true);
    addFeedback({ SessionId: targetId, Rating: FeedbackRating.ThumbsUp, Comments: '', HelpRequested: false, ContextJson: feedbackContext(result) }).catch((e) => console.warn('feedback not sent', e));
  };
  return (
    <article className={`insight-card ${failing ? 'potential' : 'ruled-out'}`} data-testid="insight-card" data-test-id={result.TestID} onMouseEnter={() => onHover(result)} onMouseLeave={() => onHover(null)}>
      <h4>
        {onOpenModal ? (
          <button type="button" className="link-button" onClick={() => onOpenModal(result)}>
            {result.Title}
          </button>
        ) : (
          result.Title
        )}
      </h4>
      {result.Description.map((line, i) => (
        <p key={i}>{line}</p>
      ))}
      {result.Stats.length > 0 && (
        <ul className="stats-strip">
          {result.Stats.filter((s) => s.Important).map((s) => (
            <li key={s.Key}>
              <span>{s.Name}</span> <strong>{s.Value ?? '-'}</strong> {s.Measure}
            </li>
          ))}
        </ul>
      )}
      {segments.length > 0 && (
        <div className="segment-pager">
          {pager.shown.map((s) => (
            <button type="button" key={s.TimeRange.Start} className="segment" onClick={() => onSegment(s)} title="Show this time in the graphs">
              {time(s.TimeRange.Start)} – {time(s.TimeRange.End)}
              {s.Stats.map((x) => (x.Value === null ? null : <span key={x.Key}> · {x.Value}</span>))}
            </button>
          ))}
          {pager.pages > 1 && (
            <span className="pager">
              <button type="button" className="link-button" disabled={pager.page === 0} onClick={() => setPage(pager.page - 1)}>‹</button>
              {pager.page + 1} / {pager.pages}
              <button type="button" className="link-button" disabled={pager.page >= pager.pages - 1} onClick={() => setPage(pager.page + 1)}>›</button>
            </span>
          )}
        </div>
      )}
      {result.HopDetails.length > 0 && (
        <div className="hop-links">
          {result.HopDetails.map((d) => (
            <button type="button" key={d.HopNumber} className="link-button" onClick={() => onDetails(d)}>
              Hop #{d.HopNumber} details
            </button>
          ))}
        </div>
      )}
      <footer>
        <a href={result.ReadMoreUrl} target="_blank" rel="noreferrer">Read More</a>
        <button type="button" className="link-button" onClick={() => onFeedback(result)}>Feedback</button>
        {helped ? <span className="feedback-thanks">{FeedbackThanks}</span> : <button type="button" className="link-button" onClick={thisHelped}>This Helped</button>}
      </footer>
    </article>
  );
}
