// The strip above the Path view (issue 44 item 3): per interval the selection's loss (red bars)
// and latency (a line), and a mark at every minute with a route change. Clicking a mark opens
// the before/after comparison; dragging across the strip selects that range (the console's
// time state, which the graphs follow too).
import { useMemo, useRef, useState } from 'react';
import type { PathView } from '../../../server/contract/path-view';
import { LatencyLine, LossColour } from '../target/colours';
import { changeMarks, stripBars, timeAt, type ChangeMark } from './logic/strip';

const Height = 56;

interface Props {
  view: PathView;
  width: number;
  onMark: (m: ChangeMark) => void;
  onSelectRange?: (startMs: number, endMs: number) => void;
}

export function PathTimeStrip({ view, width, onMark, onSelectRange }: Props) {
  const scale = useMemo(() => ({ startMs: Date.parse(view.Start), endMs: Date.parse(view.End), width }), [view.Start, view.End, width]);
  const bars = useMemo(() => stripBars(scale, view.Strip, view.StripIntervalSeconds), [scale, view.Strip, view.StripIntervalSeconds]);
  const marks = useMemo(() => changeMarks(scale, view.RouteChanges), [scale, view.RouteChanges]);
  const maxLatency = Math.max(1, ...bars.map((b) => b.latencyMs ?? 0));
  const line = bars
    .filter((b) => b.latencyMs !== null)
    .map((b, i) => `${i ? 'L' : 'M'}${b.x + b.width / 2},${Height - 6 - ((b.latencyMs ?? 0) / maxLatency) * (Height - 18)}`)
    .join(' ');
  const [drag, setDrag] = useState<{ from: number; to: number } | null>(null);
  const svg = useRef<SVGSVGElement>(null);
  const xIn = (clientX: number) => clientX - (svg.current?.getBoundingClientRect().left ?? 0);
  return (
    <svg
      ref={svg}
      className="path-strip"
      data-testid="path-strip"
      width={width}
      height={Height}
      onMouseDown={(e) => onSelectRange && setDrag({ from: xIn(e.clientX), to: xIn(e.clientX) })}
      onMouseMove={(e) => drag && setDrag({ ...drag, to: xIn(e.clientX) })}
      onMouseUp={() => {
        if (drag && onSelectRange && Math.abs(drag.to - drag.from) > 4) {
          const a = timeAt(scale, Math.min(drag.from, drag.to));
          const b = timeAt(scale, Math.max(drag.from, drag.to));
          onSelectRange(a, b);
        }
        setDrag(null);
      }}
      onMouseLeave={() => setDrag(null)}
    >
      <rect className="path-strip-bg" x={0} y={0} width={width} height={Height} />
      {bars.map((b) => (
        <rect key={b.startMs} className="path-strip-loss" x={b.x} width={b.width} y={Height - 4 - ((b.lossPercent ?? 0) / 100) * (Height - 12)} height={((b.lossPercent ?? 0) / 100) * (Height - 12)} fill={LossColour}>
          <title>{`${new Date(b.startMs).toLocaleString()}: loss ${b.lossPercent === null ? '–' : `${b.lossPercent}%`}, latency ${b.latencyMs === null ? '–' : `${b.latencyMs} ms`}`}</title>
        </rect>
      ))}
      {line && <path d={line} stroke={LatencyLine} strokeWidth={1.5} fill="none" />}
      {drag && <rect className="path-strip-drag" x={Math.min(drag.from, drag.to)} width={Math.abs(drag.to - drag.from)} y={0} height={Height} />}
      {marks.map((m) => (
        <g
          key={m.minuteMs}
          className="path-change-mark"
          data-testid="path-change-mark"
          data-time={new Date(m.minuteMs).toISOString()}
          transform={`translate(${m.x},0)`}
          onMouseDown={(e) => e.stopPropagation()}
          onClick={() => onMark(m)}
        >
          <line x1={0} x2={0} y1={0} y2={Height} />
          <path d="M-6,0 L6,0 L0,9 z" />
          <rect x={-6} y={0} width={12} height={Height} fill="transparent" />
          <title>{`${new Date(m.minuteMs).toLocaleString()}: ${m.changes.length} route change${m.changes.length > 1 ? 's' : ''} · click to compare before and after`}</title>
        </g>
      ))}
    </svg>
  );
}
