// The Path view's one call (issue 44): GET /api/path/PathView, through the console's fetch
// wrapper so every failure takes the shell's error path. The hub method PathView answers the same.
import { get, withQuery } from '../api/http';
import type { PathView, PathViewKind } from '../../../server/contract/path-view';

export function pathView(kind: PathViewKind, id: string, startMs: number, endMs: number, signal?: AbortSignal) {
  return get<PathView>(withQuery('/api/path/PathView', { kind, id, start: Math.floor(startMs), end: Math.ceil(endMs) }), { signal });
}
