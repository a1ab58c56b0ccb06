// Comment editor (spec 2 sections 4 and 5): create or edit a comment on a target's timeline.
// Text is required ("Comment not saved - no text entered." and nothing is sent); the time
// field takes natural dates and offsets ("yesterday at 6", "10 minutes ago"), read when the
// field is left, never in the future. The placeholder shows the reference time. A failed save
// re-enables the button (and the error takes the console's error path).
import { useState } from 'react';
import type { Comment } from '../../../server/contract/summaries';
import { Modal } from '../components/Modal';
import { reportError } from '../state/reportError';
import { showToast } from '../state/toasts';
import { createComment, updateComment } from './api';
import { commentDraftError } from './logic/commentDraft';
import { formatCommentTime, parseCommentTime } from './logic/commentTime';
import { CancelSaveActions } from '../components/CancelSaveActions';

export function CommentDialog({
  targetId,
  comment,
  atMs,
  onClose,
}: {
  targetId: string;
  /** The comment being edited; absent to create one. */
  comment?: Comment;
  /** Reference time for a new comment (the clicked graph time). */
  atMs: number;
  onClose: () => void;
}) {
  const reference = comment ? Date.parse(comment.When) : atMs;
  const [text, setText] = useState(comment?.Text ?? '');
  const [timeText, setTimeText] = useState(formatCommentTime(reference));
  const [timeMs, setTimeMs] = useState(reference);
  const [timeError, setTimeError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const readTime = (): number | null => {
    const r = parseCommentTime(timeText, { nowMs: Date.now(), referenceMs: reference });
    if (!r.ok) {
      setTimeError(r.error);
      return null;
    }
    setTimeError(null);
    setTimeMs(r.timeMs);
    setTimeText(formatCommentTime(r.timeMs));
    return r.timeMs;
  };

  const save = async () => {
    const problem = commentDraftError(text);
    if (problem) return showToast('error', problem, false);
    const when = timeText.trim() === '' ? reference : readTime();
    if (when === null) return;
    setBusy(true);
    try {
      const body = { When: new Date(when).toISOString(), Text: text.trim(), Type: comment?.Type ?? 0, SessionWebId: targetId, ExtraAttributesJson: comment?.ExtraAttributesJson ?? '' };
      if (comment) await updateComment({ ...body, Id: comment.Id });
      else await createComment(body);
      onClose();
    } catch (e) {
      reportError(e);
      setBusy(false);
    }
  };

  return (
    <Modal title={comment ? 'Edit comment' : 'Create comment'} onClose={onClose} width={460}>
      <div className="modal-body">
        <div className="field">
          <label htmlFor="comment-time">Time</label>
          <input
            id="comment-time"
            value={timeText}
            placeholder={formatCommentTime(reference)}
            aria-invalid={timeError !== null}
            onChange={(e) => setTimeText(e.target.value)}
            onBlur={() => timeText.trim() !== '' && readTime()}
          />
          {timeError ? <span className="field-error">{timeError}</span> : <span className="hint">e.g. "10 minutes ago", "yesterday at 6" · {new Date(timeMs).toLocaleString()}</span>}
        </div>
        <div className="field">
          <label htmlFor="comment-text">Comment</label>
          <textarea id="comment-text" value={text} autoFocus onChange={(e) => setText(e.target.value)} placeholder="What happened at this time?" />
        </div>
        <CancelSaveActions busy={busy} onCancel={onClose} onSave={() => void save()} />
      </div>
    </Modal>
  );
}
