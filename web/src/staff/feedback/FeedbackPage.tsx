// /staff/feedback: Insights feedback (rating, comments, the test) and support tickets of every
// account, newest first, each with its answers; an answer is mailed to the account and listed
// for it (docs/staff.md). Everything users wrote is shown as text (React escapes it).
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { FeedbackKind } from '../../../../server/contract/staff';
import { useDocumentTitle } from '../../shell/documentTitle';
import { ImpersonateButton } from '../ImpersonateButton';
import { localTime, ratingText } from '../logic/text';
import { AnswerForm } from './AnswerForm';
import { useFeedback } from './useFeedback';
import '../staff.css';

export function FeedbackPage() {
  useDocumentTitle('Feedback');
  const [kind, setKind] = useState<FeedbackKind | ''>('');
  const [unansweredOnly, setUnansweredOnly] = useState(false);
  const [open, setOpen] = useState<string>();
  const { items, loading, reload, answer } = useFeedback({ kind: kind || undefined, unansweredOnly });
  return (
    <section className="page staff-page feedback">
      <header className="page-header">
        <h1>Feedback</h1>
      </header>
      <div className="staff-tools">
        <select aria-label="Kind" value={kind} onChange={(e) => setKind(e.target.value as FeedbackKind | '')}>
          <option value="">Feedback and tickets</option>
          <option value="Insight">Insights feedback</option>
          <option value="Ticket">Support tickets</option>
        </select>
        <label>
          <input type="checkbox" checked={unansweredOnly} onChange={(e) => setUnansweredOnly(e.target.checked)} /> Unanswered only
        </label>
        <button type="button" className="button secondary" onClick={reload}>Refresh</button>
        {loading && <span className="hint">Loading...</span>}
      </div>
      <table className="staff-grid" role="grid" aria-label="Feedback and tickets">
        <thead>
          <tr>
            <th>Time</th>
            <th>Kind</th>
            <th>From</th>
            <th>What they wrote</th>
            <th>Answers</th>
          </tr>
        </thead>
        <tbody>
          {items.map((i) => {
            const key = `${i.Kind}:${i.Id}`;
            return (
              <tr key={key} data-item={key}>
                <td>{localTime(i.Time)}</td>
                <td>
                  {i.Kind === 'Ticket' ? `Support ticket #${i.Id}` : `Insights feedback #${i.Id}`}
                  {i.Kind === 'Insight' && <div className="hint">{ratingText(i.Rating)}{i.HelpRequested ? ', help requested' : ''}</div>}
                </td>
                <td>
                  <Link to={`/staff/userandevents/?userId=${i.UserId}`}>{i.UserName || `user ${i.UserId}`}</Link>
                  <div className="hint">{i.AccountName}{i.EmailAddress ? `, ${i.EmailAddress}` : ''}</div>
                  <ImpersonateButton userId={i.UserId} />
                </td>
                <td>
                  <div className="staff-text">{i.Text}</div>
                  {i.Context && <div className="hint">{i.Context}</div>}
                </td>
                <td>
                  {i.Answers.map((a) => (
                    <div key={a.Id} className="staff-answer">
                      <div className="staff-text">{a.Text}</div>
                      <div className="hint">
                        {a.StaffName}, {localTime(a.Time)}, {a.Mailed ? 'mailed' : `not mailed: ${a.MailProblem}`}
                      </div>
                    </div>
                  ))}
                  {open === key ? (
                    <AnswerForm item={i} onAnswer={answer} />
                  ) : (
                    <button type="button" className="button secondary" onClick={() => setOpen(key)}>Answer</button>
                  )}
                </td>
              </tr>
            );
          })}
          {!loading && items.length === 0 && (
            <tr>
              <td colSpan={5} className="hint">No feedback or tickets.</td>
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}
