// Draws a laid-out Path view graph as SVG (issue 44 items 1-2): nodes coloured by the loss that
// starts there, silent hops dashed, edges coloured by the latency they add and as wide as they
// are frequent, expanded networks as boxes. Hover and click go to the caller.
import { useMemo } from 'react';
import type { PathLayout, Point } from './logic/layout';
import type { ShownGraph, ShownNode } from './logic/shownGraph';
import { edgeColour, edgeWidth, NodeToneColour, nodeTone } from './logic/colours';

export interface NodeHighlight {
  /** Search matches (the rest is faded while a search is on). */
  matches?: ReadonlySet<string>;
  searching?: boolean;
  removed?: ReadonlySet<string>;
  added?: ReadonlySet<string>;
}

interface Props {
  graph: ShownGraph;
  layout: PathLayout;
  highlight?: NodeHighlight;
  expandedAs?: ReadonlySet<number>;
  onHover?: (n: ShownNode | null, x: number, y: number) => void;
  onClick?: (n: ShownNode, x: number, y: number) => void;
  onCollapseAs?: (asn: number) => void;
  testId?: string;
}

const pathOf = (pts: Point[]) => {
  if (pts.length < 2) return '';
  let d = `M${pts[0].x},${pts[0].y}`;
  for (let i = 1; i < pts.length - 1; i++) {
    const mx = (pts[i].x + pts[i + 1].x) / 2;
    const my = (pts[i].y + pts[i + 1].y) / 2;
    d += ` Q${pts[i].x},${pts[i].y} ${mx},${my}`;
  }
  const last = pts[pts.length - 1];
  return `${d} L${last.x},${last.y}`;
};

function label(n: ShownNode): [string, string] {
  const p = n.node;
  if (n.kind === 'AsGroup') return [`AS${n.asn}${p.AsName ? ` ${p.AsName}` : ''}`, `${n.members.length} routers · click to expand`];
  if (n.kind === 'Agent') return [p.Name, 'agent'];
  if (n.kind === 'Silent') return ['?', ''];
  const sub = p.Name || (p.Special ?? (p.Asn !== null ? `AS${p.Asn}` : ''));
  return [p.Address ?? '', sub];
}

export function PathGraphSvg({ graph, layout, highlight, expandedAs, onHover, onClick, onCollapseAs, testId = 'path-graph' }: Props) {
  const maxWeight = useMemo(() => Math.max(1, ...graph.edges.map((e) => e.weight)), [graph]);
  // Boxes of expanded networks: around their routers' places.
  const boxes = useMemo(() => {
    const out: { asn: number; name: string; x: number; y: number; w: number; h: number }[] = [];
    for (const asn of expandedAs ?? []) {
      const members = graph.nodes.filter((n) => n.kind === 'Router' && n.asn === asn);
      const placed = members.map((n) => layout.nodes.get(n.id)).filter((p) => !!p);
      if (!placed.length) continue;
      const x0 = Math.min(...placed.map((p) => p.x - p.width / 2)) - 8;
      const y0 = Math.min(...placed.map((p) => p.y - p.height / 2)) - 20;
      const x1 = Math.max(...placed.map((p) => p.x + p.width / 2)) + 8;
      const y1 = Math.max(...placed.map((p) => p.y + p.height / 2)) + 8;
      out.push({ asn, name: members[0].node.AsName ?? '', x: x0, y: y0, w: x1 - x0, h: y1 - y0 });
    }
    return out;
  }, [expandedAs, graph, layout]);
  const faded = (id: string) => !!highlight?.searching && !highlight.matches?.has(id);
  return (
    <svg className="path-graph" data-testid={testId} width={layout.width} height={layout.height} viewBox={`0 0 ${layout.width} ${layout.height}`} role="img" aria-label="Path graph">
      <defs>
        <marker id="path-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
          <path d="M0,0 L10,5 L0,10 z" fill="#94a3b8" />
        </marker>
      </defs>
      {boxes.map((b) => (
        <g key={b.asn} className="path-as-box" data-asn={b.asn}>
          <rect x={b.x} y={b.y} width={b.w} height={b.h} rx={8} />
          <text x={b.x + 8} y={b.y + 13} onClick={() => onCollapseAs?.(b.asn)}>
            AS{b.asn} {b.name} · collapse
          </text>
        </g>
      ))}
      {graph.edges.map((e) => {
        const pts = layout.edges.get(e.key);
        if (!pts) return null;
        return (
          <path
            key={e.key}
            className={`path-edge${faded(e.from) && faded(e.to) ? ' faded' : ''}`}
            data-edge={e.key}
            d={pathOf(pts)}
            stroke={edgeColour(e.addedLatencyMs)}
            strokeWidth={edgeWidth(e.weight, maxWeight)}
            fill="none"
            markerEnd="url(#path-arrow)"
          >
            <title>{`${e.addedLatencyMs === null ? 'latency unknown' : `+${e.addedLatencyMs.toFixed(1)} ms`} · seen ${e.weight} min`}</title>
          </path>
        );
      })}
      {graph.nodes.map((n) => {
        const p = layout.nodes.get(n.id);
        if (!p) return null;
        const tone = n.kind === 'AsGroup' ? 'plain' : nodeTone(n.node);
        const colours = NodeToneColour[tone];
        const [title, sub] = label(n);
        const mark = highlight?.removed?.has(n.id) ? ' removed' : highlight?.added?.has(n.id) ? ' added' : '';
        const match = highlight?.matches?.has(n.id) ? ' match' : '';
        return (
          <g
            key={n.id}
            className={`path-node kind-${n.kind} tone-${tone}${mark}${match}${faded(n.id) ? ' faded' : ''}`}
            data-node={n.id}
            transform={`translate(${p.x - p.width / 2},${p.y - p.height / 2})`}
            onMouseEnter={(ev) => onHover?.(n, ev.clientX, ev.clientY)}
            onMouseMove={(ev) => onHover?.(n, ev.clientX, ev.clientY)}
            onMouseLeave={() => onHover?.(null, 0, 0)}
            onClick={(ev) => onClick?.(n, ev.clientX, ev.clientY)}
          >
            <rect width={p.width} height={p.height} rx={n.kind === 'Agent' ? 4 : n.kind === 'Silent' ? 12 : 8} fill={colours.fill} stroke={colours.stroke} strokeDasharray={n.kind === 'Silent' ? '4 3' : undefined} />
            <text x={p.width / 2} y={sub ? p.height / 2 - 3 : p.height / 2 + 4} textAnchor="middle" className="path-node-title">
              {title}
            </text>
            {sub && (
              <text x={p.width / 2} y={p.height / 2 + 12} textAnchor="middle" className="path-node-sub">
                {sub.length > 24 ? `${sub.slice(0, 23)}…` : sub}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}
