// Feedback's data: the items for the filter, and answering one (the answer replaces the item).
import { useEffect, useState } from 'react';
import type { FeedbackItem, FeedbackKind } from '../../../../server/contract/staff';
import { answerFeedback, listFeedback } from '../api';
import { useStaffData } from '../useStaffData';
import { showToast } from '../../state/toasts';

export function useFeedback(filter: { kind?: FeedbackKind; unansweredOnly: boolean }) {
  const { data, loading, reload } = useStaffData(() => listFeedback(filter), [filter.kind, filter.unansweredOnly], 'the feedback');
  const [items, setItems] = useState<FeedbackItem[]>([]);
  useEffect(() => setItems(data ?? []), [data]);
  /** Throws what the server said (the form shows it); toasts whether the mail went out. */
  const answer = async (item: FeedbackItem, text: string) => {
    const updated = await answerFeedback(item.Kind, item.Id, text);
    if (!updated) return;
    setItems((list) => list.map((i) => (i.Kind === updated.Kind && i.Id === updated.Id ? updated : i)));
    const last = updated.Answers[updated.Answers.length - 1];
    showToast('info', last?.Mailed ? `Answer sent to ${updated.EmailAddress}.` : `Answer saved for the account; the mail did not go out: ${last?.MailProblem ?? ''}`);
  };
  return { items, loading, reload, answer };
}
