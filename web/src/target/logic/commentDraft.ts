// Checks a comment before it is sent (spec 2 section 5): text is required, and an empty one
// shows "Comment not saved - no text entered." with nothing sent. The length limit is the
// server's (server/contract/summaries); its message is a decision.
import { CommentTextMaxLength } from '../../../../server/contract/summaries';
import { CommentNoTextMessage } from './constants';

export function commentTooLongMessage(): string {
  return `Comment not saved - the text is longer than ${CommentTextMaxLength} characters.`;
}

/** The error toast text for a comment draft, or null when it may be sent. */
export function commentDraftError(text: string): string | null {
  if (text.trim() === '') return CommentNoTextMessage;
  if (text.length > CommentTextMaxLength) return commentTooLongMessage();
  return null;
}
