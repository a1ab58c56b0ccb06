// The Path view (issue 44; docs/path-view.md): every route to a target, or to every target of a
// summary, from every agent, as one graph over the console's selected range (the graphs'
// focus), with the time strip of loss, latency and route changes above it, the before/after
// comparison of a change, and the route changes list. Read-only: the same in LiveShare views.
// This component wires the hooks and parts together; the rules are in logic/.
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { PathRouteChange, PathViewKind } from '../../../server/contract/path-view';
import { BeforeAfter } from './BeforeAfter';
import { StableLayout } from './logic/layout';
import { nodeReadout } from './logic/nodeReadout';
import { searchMatches, shownGraph, type ShownNode } from './logic/shownGraph';
import { PathGraphSvg } from './PathGraphSvg';
import { PathTimeStrip } from './PathTimeStrip';
import { RouteChangesList } from './RouteChangesList';
import { usePathView } from './usePathView';
import './path.css';

export interface PathPanelProps {
  kind: PathViewKind;
  id: string;
  /** The console's selected range (the graphs' focus). */
  range: { startMs: number; endMs: number };
  /** Dragging across the strip selects a range (the graphs follow it too). */
  onSelectRange?: (startMs: number, endMs: number) => void;
  /** Click on a hop: open it in the target window at the same range. */
  onOpenHop: (sessionId: number, hop: number) => void;
}

declare global {
  interface Window {
    /** Draw times of the Path view (ms from data to painted), read by the browser test and benchmark. */
    __hopwatchPathDraws?: { ms: number; layoutMs: number; layoutRan: boolean; orderSwept: boolean; nodes: number }[];
  }
}

type Pinned = { node: ShownNode; x: number; y: number };

export function PathPanel({ kind, id, range, onSelectRange, onOpenHop }: PathPanelProps) {
  const state = usePathView(kind, id, range);
  const view = state.view;
  const [hiddenAgents, setHiddenAgents] = useState<Set<number>>(new Set());
  const [groupByAs, setGroupByAs] = useState(false);
  const [expandedAs, setExpandedAs] = useState<Set<number>>(new Set());
  const [search, setSearch] = useState('');
  const [hover, setHover] = useState<Pinned | null>(null);
  const [pinned, setPinned] = useState<Pinned | null>(null);
  const [compare, setCompare] = useState<{ minuteMs: number; changes: PathRouteChange[] } | null>(null);
  const stable = useRef<{ key: string; layout: StableLayout } | null>(null);
  if (!stable.current || stable.current.key !== `${kind} ${id}`) stable.current = { key: `${kind} ${id}`, layout: new StableLayout() };
  const root = useRef<HTMLDivElement>(null);
  const [stripWidth, setStripWidth] = useState(800);

  const started = useRef(0);
  const drawn = useMemo(() => {
    if (!view) return null;
    started.current = performance.now();
    const hiddenSessions = new Set(view.Sessions.filter((s) => hiddenAgents.has(s.AgentId)).map((s) => s.SessionId));
    const graph = shownGraph(view, { hiddenSessions, groupByAs, expandedAs });
    const runsBefore = stable.current!.layout.runs;
    const layout = stable.current!.layout.place(graph);
    return { graph, layout, layoutRan: stable.current!.layout.runs !== runsBefore, layoutMs: performance.now() - started.current };
  }, [view, hiddenAgents, groupByAs, expandedAs]);
  const matches = useMemo(() => (drawn ? searchMatches(drawn.graph, search) : new Set<string>()), [drawn, search]);

  useLayoutEffect(() => {
    if (!drawn) return;
    const t0 = started.current;
    requestAnimationFrame(() => {
      const ms = performance.now() - t0;
      (window.__hopwatchPathDraws ??= []).push({ ms, layoutMs: drawn.layoutMs, layoutRan: drawn.layoutRan, orderSwept: drawn.layout.orderSwept, nodes: drawn.graph.nodes.length });
      root.current?.setAttribute('data-draw-ms', ms.toFixed(1));
    });
  }, [drawn]);
  useLayoutEffect(() => {
    const el = root.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setStripWidth(Math.max(200, el.clientWidth - 2)));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const agents = useMemo(() => {
    const out = new Map<number, string>();
    for (const s of view?.Sessions ?? []) out.set(s.AgentId, s.AgentName);
    return [...out];
  }, [view]);
  const targetNameOf = (sessionId: number) => {
    const s = view?.Sessions.find((x) => x.SessionId === sessionId);
    return s ? s.TargetName || s.TargetAddress : '';
  };
  const shown = pinned ?? hover;
  const readout = shown && shown.node.kind !== 'AsGroup' ? nodeReadout(shown.node.node, targetNameOf) : null;

  const onClick = (n: ShownNode, x: number, y: number) => {
    if (n.kind === 'AsGroup') return setExpandedAs((s) => new Set([...s, n.asn!]));
    if (n.kind === 'Agent') return;
    const figures = n.node.Agents;
    if (figures.length === 1) return onOpenHop(figures[0].SessionId, figures[0].Hop);
    setPinned({ node: n, x, y });
  };

  return (
    <div className="path-panel" data-testid="path-panel" ref={root} data-state={state.status}>
      <div className="path-head">
      <div className="path-toolbar">
        <input type="search" placeholder="Search an address, name or AS" aria-label="Search the path" value={search} onChange={(e) => setSearch(e.target.value)} />
        {search.trim() && <span className="path-muted" data-testid="path-search-count">{matches.size} found</span>}
        <label>
          <input type="checkbox" checked={groupByAs} onChange={(e) => (setGroupByAs(e.target.checked), setExpandedAs(new Set()))} /> Group by AS
        </label>
        <span className="path-agents" role="group" aria-label="Agents shown">
          {agents.map(([agentId, name]) => (
            <label key={agentId} className="path-agent">
              <input
                type="checkbox"
                checked={!hiddenAgents.has(agentId)}
                onChange={(e) =>
                  setHiddenAgents((s) => {
                    const next = new Set(s);
                    if (e.target.checked) next.delete(agentId);
                    else next.add(agentId);
                    return next;
                  })
                }
              />{' '}
              {name}
            </label>
          ))}
        </span>
        <span className="path-muted path-status">
          {state.status === 'loading' ? 'Loading…' : state.status === 'failed' ? `Error: ${state.message}` : drawn ? `${drawn.graph.nodes.length} nodes, ${drawn.graph.edges.length} links` : ''}
        </span>
      </div>
      {view && <PathTimeStrip view={view} width={stripWidth} onMark={(m) => setCompare({ minuteMs: m.minuteMs, changes: m.changes })} onSelectRange={onSelectRange} />}
      </div>
      {compare && <BeforeAfter kind={kind} id={id} minuteMs={compare.minuteMs} changes={compare.changes} onClose={() => setCompare(null)} />}
      <div className="path-scroll" onClick={(e) => e.target === e.currentTarget && setPinned(null)}>
        {drawn && drawn.graph.nodes.length === 0 && <p className="path-muted">No hop answered in this range.</p>}
        {drawn && (
          <PathGraphSvg
            graph={drawn.graph}
            layout={drawn.layout}
            highlight={{ matches, searching: !!search.trim() }}
            expandedAs={groupByAs ? expandedAs : undefined}
            onHover={(n, x, y) => setHover(n ? { node: n, x, y } : null)}
            onClick={onClick}
            onCollapseAs={(asn) => setExpandedAs((s) => new Set([...s].filter((a) => a !== asn)))}
          />
        )}
      </div>
      {shown && readout && (
        <div className={`path-tooltip${pinned ? ' pinned' : ''}`} data-testid="path-tooltip" role="tooltip" style={{ left: shown.x + 14, top: shown.y + 14 }}>
          <strong>{readout.title}</strong>
          {readout.lines.map((l) => (
            <div key={l}>{l}</div>
          ))}
          {readout.agents.length > 0 && (
            <ul>
              {readout.agents.map((a) => (
                <li key={`${a.sessionId} ${a.hop}`}>
                  {pinned ? (
                    <button type="button" onClick={() => (setPinned(null), onOpenHop(a.sessionId, a.hop))}>
                      {a.text}
                    </button>
                  ) : (
                    a.text
                  )}
                </li>
              ))}
            </ul>
          )}
          {pinned ? <div className="path-muted">Choose a trace to open this hop in its target window.</div> : <div className="path-muted">Click to open this hop in the target window.</div>}
        </div>
      )}
      {view && <RouteChangesList view={view} onOpen={(c) => setCompare({ minuteMs: Date.parse(c.Time), changes: view.RouteChanges.filter((x) => x.Time === c.Time) })} />}
    </div>
  );
}
