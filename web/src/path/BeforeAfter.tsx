// The path before and after a route change, side by side (issue 44 item 3): the traces that
// changed at that minute, read for up to 10 minutes before the change's minute and after it,
// drawn on one layout (the same router in the same place on both sides), the nodes only one
// side has highlighted (removed red, added green).
import { useLayoutEffect, useMemo, useRef } from 'react';
import type { PathRouteChange, PathViewKind } from '../../../server/contract/path-view';
import { layoutGraph } from './logic/layout';
import { beforeAfterRanges, changedNodes } from './logic/routeChangeExport';
import { shownGraph, type ShownGraph } from './logic/shownGraph';
import { PathGraphSvg } from './PathGraphSvg';
import { usePathView } from './usePathView';

interface Props {
  kind: PathViewKind;
  id: string;
  minuteMs: number;
  changes: PathRouteChange[];
  onClose: () => void;
}

export function BeforeAfter({ kind, id, minuteMs, changes, onClose }: Props) {
  const ranges = useMemo(() => beforeAfterRanges(minuteMs), [minuteMs]);
  const before = usePathView(kind, id, ranges.before);
  const after = usePathView(kind, id, ranges.after);
  const sessions = useMemo(() => new Set(changes.map((c) => c.SessionId)), [changes]);
  const ready = before.status === 'ready' && after.status === 'ready';
  const drawn = useMemo(() => {
    if (!ready) return null;
    const only = (v: typeof before.view) => {
      const hidden = new Set(v!.Sessions.map((s) => s.SessionId).filter((s) => !sessions.has(s)));
      return shownGraph(v!, { hiddenSessions: hidden, groupByAs: false, expandedAs: new Set() });
    };
    const b = only(before.view);
    const a = only(after.view);
    const union: ShownGraph = {
      nodes: [...b.nodes, ...a.nodes.filter((n) => !b.nodes.some((m) => m.id === n.id))],
      edges: [...b.edges, ...a.edges.filter((e) => !b.edges.some((f) => f.key === e.key))],
    };
    const layout = layoutGraph(union);
    const diff = changedNodes(
      b.nodes.map((n) => ({ Id: n.id })),
      a.nodes.map((n) => ({ Id: n.id })),
    );
    return { b, a, layout, diff };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready, before.view, after.view, sessions]);
  // Both sides scrolled to the change (the same place: one layout).
  const sides = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (!drawn) return;
    const changed = [...drawn.diff.removed, ...drawn.diff.added].map((id) => drawn.layout.nodes.get(id)).filter((p) => !!p);
    if (!changed.length) return;
    const x = Math.min(...changed.map((p) => p.x)) - 240;
    const y = Math.min(...changed.map((p) => p.y)) - 60;
    sides.current?.querySelectorAll<HTMLDivElement>('.path-scroll').forEach((el) => el.scrollTo({ left: Math.max(0, x), top: Math.max(0, y) }));
  }, [drawn]);
  const failed = before.status === 'failed' ? before.message : after.status === 'failed' ? after.message : null;
  return (
    <section className="path-before-after" data-testid="path-before-after" aria-label="Before and after the route change">
      <header>
        <h3>Route change at {new Date(minuteMs).toLocaleString()}</h3>
        <ul>
          {changes.map((c) => (
            <li key={`${c.SessionId} ${c.Hop}`}>
              {c.AgentName}, hop {c.Hop}: {c.Old.join(', ')} → {c.New.join(', ')}
            </li>
          ))}
        </ul>
        <button type="button" onClick={onClose} aria-label="Close the comparison">
          Close
        </button>
      </header>
      {failed ? (
        <p className="error">Error loading the comparison: {failed}</p>
      ) : !drawn ? (
        <p className="path-muted">Loading…</p>
      ) : (
        <div className="path-before-after-sides" ref={sides}>
          <figure data-testid="path-before">
            <figcaption>Before ({new Date(ranges.before.startMs).toLocaleTimeString()} – {new Date(ranges.before.endMs).toLocaleTimeString()})</figcaption>
            <div className="path-scroll">
              <PathGraphSvg graph={drawn.b} layout={drawn.layout} highlight={{ removed: drawn.diff.removed }} testId="path-graph-before" />
            </div>
          </figure>
          <figure data-testid="path-after">
            <figcaption>After ({new Date(ranges.after.startMs).toLocaleTimeString()} – {new Date(ranges.after.endMs).toLocaleTimeString()})</figcaption>
            <div className="path-scroll">
              <PathGraphSvg graph={drawn.a} layout={drawn.layout} highlight={{ added: drawn.diff.added }} testId="path-graph-after" />
            </div>
          </figure>
        </div>
      )}
    </section>
  );
}
