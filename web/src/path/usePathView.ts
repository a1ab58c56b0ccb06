// Reads the Path view of a target or summary for a time range (one call; the last answer is
// kept while the next range loads, so the drawing stays and redraws in place).
import { useEffect, useState } from 'react';
import type { PathView, PathViewKind } from '../../../server/contract/path-view';
import { errorMessage } from '../api/errors';
import { pathView } from './api';

export type PathViewState = { status: 'loading'; view: PathView | null } | { status: 'ready'; view: PathView } | { status: 'failed'; view: PathView | null; message: string };

export function usePathView(kind: PathViewKind, id: string | undefined, range: { startMs: number; endMs: number } | null): PathViewState {
  const [state, setState] = useState<PathViewState>({ status: 'loading', view: null });
  const start = range ? Math.floor(range.startMs / 1000) * 1000 : 0;
  const end = range ? Math.ceil(range.endMs / 1000) * 1000 : 0;
  useEffect(() => {
    if (!id || !range || !(end > start)) return;
    const abort = new AbortController();
    setState((s) => ({ status: 'loading', view: s.view }));
    pathView(kind, id, start, end, abort.signal).then(
      (view) => {
        if (!abort.signal.aborted && view) setState({ status: 'ready', view });
      },
      (e) => {
        if (!abort.signal.aborted) setState((s) => ({ status: 'failed', view: s.view, message: errorMessage(e) }));
      },
    );
    return () => abort.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [kind, id, start, end]);
  return state;
}
