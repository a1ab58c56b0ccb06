import { describe, expect, it } from 'vitest';
import { commentDraftError, commentTooLongMessage } from './commentDraft';
import { CommentTextMaxLength } from '../../../../server/contract/summaries';

describe('commentDraftError', () => {
  it('requires text', () => {
    expect(commentDraftError('')).toBe('Comment not saved - no text entered.');
    expect(commentDraftError('  \n ')).toBe('Comment not saved - no text entered.');
  });
  it('accepts text up to the server limit', () => {
    expect(commentDraftError('router swapped')).toBeNull();
    expect(commentDraftError('x'.repeat(CommentTextMaxLength))).toBeNull();
    expect(commentDraftError('x'.repeat(CommentTextMaxLength + 1))).toBe(commentTooLongMessage());
  });
});
