// The comments of the graphs' loaded range (GetComments over /cmd/getcomments), read again
// when the range moves by a minute, when the hub reports a change (CommentChanged, after
// RegisterForComments) and when the window changed one itself (reload).
import { useCallback, useEffect, useState } from 'react';
import type { Comment } from '../../../server/contract/summaries';
import { keepRegistered, subscribe } from '../hub/connection';
import * as api from './api';
import { dataRangeToLoad } from './logic/graphDataRange';
import type { GraphTimeState } from './logic/graphTimeState';

export function useComments(targetId: string | undefined, time: GraphTimeState): { comments: Comment[]; reload: () => void } {
  const [comments, setComments] = useState<Comment[]>([]);
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  // Whole minutes, so a live viewport creeping forward does not refetch on every frame.
  const range = dataRangeToLoad(time);
  const rangeKey = `${Math.floor(range.startMs / 60_000)}-${Math.ceil(range.endMs / 60_000)}`;

  useEffect(() => {
    if (!targetId) return;
    const leave = keepRegistered('RegisterForComments', 'UnregisterForComments', targetId);
    const off = subscribe('CommentChanged', (tid) => String(tid) === targetId && reload());
    return () => {
      off();
      leave();
    };
  }, [targetId, reload]);

  useEffect(() => {
    if (!targetId) return;
    const [a, b] = rangeKey.split('-').map(Number);
    api.getComments(targetId, a * 60_000, Math.min(b * 60_000, Date.now() + 60_000)).then(
      (list) => setComments(list ?? []),
      (e) => console.warn('GetComments failed', e),
    );
  }, [targetId, rangeKey, tick]);

  return { comments, reload };
}
