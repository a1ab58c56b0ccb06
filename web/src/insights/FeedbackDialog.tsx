// Feedback on one result (spec 3 section 2.4): a rating from 1 to 6 (required: pressing Send
// without one turns the heading red with "(Required)"), comments and a help request. After
// sending, "Thanks for the feedback!" shows for 3 seconds (or stays, when sticky).
import { useEffect, useState } from 'react';
import { FeedbackRating, type WisdomTestResult } from '../../../server/contract/insights';
import { Modal } from '../components/Modal';
import { reportError } from '../state/reportError';
import { addFeedback } from './api';
import { feedbackContext } from './logic/results';

const Ratings: [number, string][] = [
  [FeedbackRating.VeryConfusing, 'Very confusing'],
  [FeedbackRating.SomewhatConfusing, 'Somewhat confusing'],
  [FeedbackRating.OK, 'OK'],
  [FeedbackRating.SomewhatUseful, 'Somewhat useful'],
  [FeedbackRating.VeryUseful, 'Very useful'],
  [FeedbackRating.ThumbsUp, 'Thumbs up'],
];
export const FeedbackThanksMs = 3000;
export const FeedbackThanks = 'Thanks for the feedback!';

export function FeedbackDialog({ targetId, result, onClose, sticky = false }: { targetId: string; result: WisdomTestResult; onClose: () => void; sticky?: boolean }) {
  const [rating, setRating] = useState(0);
  const [comments, setComments] = useState('');
  const [help, setHelp] = useState(false);
  const [missing, setMissing] = useState(false);
  const [state, setState] = useState<'open' | 'sending' | 'submitted'>('open');

  useEffect(() => {
    if (state !== 'submitted' || sticky) return;
    const t = setTimeout(onClose, FeedbackThanksMs);
    return () => clearTimeout(t);
  }, [state, sticky, onClose]);

  const send = async () => {
    if (!rating) return setMissing(true);
    setState('sending');
    try {
      await addFeedback({ SessionId: targetId, Rating: rating, Comments: comments, HelpRequested: help, ContextJson: feedbackContext(result) });
      setState('submitted');
    } catch (e) {
      reportError(e);
      setState('open');
    }
  };

  return (
    <Modal title={`Feedback: ${result.Title}`} onClose={onClose} width={460}>
      <div className="modal-body insights-feedback">
        {state === 'submitted' ? (
          <p className="feedback-thanks" role="status">{FeedbackThanks}</p>
        ) : (
          <>
            <fieldset className="field">
              <legend className={missing ? 'required-missing' : undefined}>
                How useful was this? {missing && <span className="required-note">(Required)</span>}
              </legend>
              <div className="rating-choices">
                {Ratings.map(([value, label]) => (
                  <label key={value}>
                    <input type="radio" name="rating" value={value} checked={rating === value} onChange={() => (setRating(value), setMissing(false))} /> {label}
                  </label>
                ))}
              </div>
            </fieldset>
            <div className="field">
              <label htmlFor="feedback-comments">Comments</label>
              <textarea id="feedback-comments" value={comments} maxLength={4000} onChange={(e) => setComments(e.target.value)} />
            </div>
            <label className="check">
              <input type="checkbox" checked={help} onChange={(e) => setHelp(e.target.checked)} /> I would like help with this
            </label>
            <div className="modal-actions">
              <button type="button" className="button secondary" onClick={onClose}>Cancel</button>
              <button type="button" className="button primary" disabled={state === 'sending'} onClick={() => void send()}>Send</button>
            </div>
          </>
        )}
      </div>
    </Modal>
  );
}
