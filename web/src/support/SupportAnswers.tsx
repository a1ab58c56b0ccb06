// What the account sees of staff answers to its feedback and tickets (GET /api/support/Answers;
// docs/staff.md "Feedback"): listed in the support dialog, newest first. The same answers are
// also mailed. Shown as text (React escapes what anybody wrote).
import { useEffect, useState } from 'react';
import type { AccountFeedbackAnswer } from '../../../server/contract/staff';
import { get } from '../api/http';

function useSupportAnswers() {
  const [answers, setAnswers] = useState<AccountFeedbackAnswer[]>([]);
  useEffect(() => {
    let live = true;
    // A failure here only hides the list: the dialog's own job (sending a ticket) goes on.
    get<AccountFeedbackAnswer[]>('/api/support/Answers', { authRedirect: false })
      .then((a) => live && setAnswers(a ?? []))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return answers;
}

export function SupportAnswers() {
  const answers = useSupportAnswers();
  if (!answers.length) return null;
  return (
    <details className="support-answers">
      <summary>Answers from support ({answers.length})</summary>
      {answers.map((a) => (
        <div key={`${a.Kind}:${a.ItemId}:${a.Time}`} className="support-answer">
          <div className="hint">
            {new Date(a.Time).toLocaleString()}, about "{a.About}"
          </div>
          <div style={{ whiteSpace: 'pre-wrap' }}>{a.Text}</div>
        </div>
      ))}
    </details>
  );
}
