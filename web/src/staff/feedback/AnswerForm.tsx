// The answer box under a feedback item: text, Send; the server's refusal shows beside it.
import { useState } from 'react';
import type { FeedbackItem } from '../../../../server/contract/staff';
import { errorMessage } from '../../api/errors';

export function AnswerForm({ item, onAnswer }: { item: FeedbackItem; onAnswer: (item: FeedbackItem, text: string) => Promise<void> }) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const send = async () => {
    if (!text.trim()) return setProblem('Write an answer first.');
    setBusy(true);
    setProblem('');
    try {
      await onAnswer(item, text);
      setText('');
    } catch (e) {
      setProblem(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="staff-answer-form"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <textarea aria-label={`Answer to ${item.Kind} ${item.Id}`} value={text} maxLength={10_000} onChange={(e) => setText(e.target.value)} placeholder={`Answer (mailed to ${item.EmailAddress || 'nobody: no address'} and shown to the account)`} />
      <div className="staff-tools">
        <button type="submit" className="button primary" disabled={busy}>Send answer</button>
        {problem && <span className="field-error" role="alert">{problem}</span>}
      </div>
    </form>
  );
}
