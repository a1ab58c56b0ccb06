// One timeline graph (spec 2 "Time graph") on uPlot: the hop's average latency line with its
// min-max band, packet loss as red bars of the share lost per loss bucket (logic/lossBuckets)
// on the "Packet Loss %" axis, Warn and Bad bands, the
// "Latency (ms)" axis and a comment strip below. Gestures go to the shared graph time state:
// drag pans, the wheel zooms, a double click sets the explicit focus, the context menu
// offers periods and comments.
import 'uplot/dist/uPlot.min.css';
import uPlot from 'uplot';
import { useEffect, useMemo, useRef, useState, type Dispatch, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Comment } from '../../../server/contract/summaries';
import { BadBand, CommentColour, LatencyBand, LatencyLine, LossColour, MutedLossFill, WarnBand } from './colours';
import { LossNotOnPathText, type LossNotOnPath } from '../../../server/contract/hop-loss';
import { FocusMode, ResetToCurrentLabel, ViewPeriodPresetsMinutes } from './logic/constants';
import { formatDurationShort } from './logic/duration';
import { dragDeltaMs, statsRange, viewportRange, wheelZoomFactor, type GraphTimeAction, type GraphTimeState } from './logic/graphTimeState';
import { isMeasuredLatency, lossPercent } from './logic/hopStatus';
import { hoverReadoutText, readoutBucketAt } from './logic/hoverReadout';
import { fixedScaleNote, FixedScaleNoteTitle, latencyTickText } from './logic/latencyAxis';
import { lossBucketAt, lossBuckets } from './logic/lossBuckets';
import { gapAt, gapMarkerTitle, GapReasonText, gapThresholdMs, timelineColumns, timelineGaps, type TimelineGap } from './logic/timelineGaps';
import { clock } from './logic/timeRangeText';
import { nextAutomaticScale } from './logic/latencyScale';
import { PopupMenu, type MenuItem } from './PopupMenu';
import { useBuckets } from './useBuckets';

export const CommentStripPx = 16;
/** A comment marker answers a click this close (px). */
const CommentHitPx = 6;

export type CommentAction = { kind: 'create'; atMs: number } | { kind: 'edit'; comment: Comment } | { kind: 'delete'; comment: Comment };

export interface TimelineGraphProps {
  rowId: string;
  title: string;
  subtitle: ReactNode;
  state: GraphTimeState;
  dispatch: Dispatch<GraphTimeAction>;
  warnMs: number;
  badMs: number;
  /** Fixed latency axis (display Scale > 0), else automatic. */
  fixedScaleMs: number | null;
  height: number;
  comments: Comment[];
  canComment: boolean;
  onComment: (a: CommentAction) => void;
  reloadToken: number;
  /** The trace's interval (ms): a stretch missing more than a round or two is a gap (logic/timelineGaps). */
  intervalMs: number;
  /** Called after uPlot drew a frame holding data (the "fully drawn" signal of the perf suite). */
  onDrawnWithData?: (rowId: string) => void;
  /** Summary mode: the link to the target's own window (/targets/{id}). */
  targetLink?: string;
  /**
   * Summary mode: the newest sample of this graph's target, which live data top-ups wait for
   * (the shared time state's newest is that of any target). Default: the state's.
   */
  newestSampleMs?: number | null;
  /** The hop's loss is not loss on the path (logic/mutedLoss): its loss bars are grey, with a note saying why. */
  lossMuted?: LossNotOnPath;
}

const periodLabel = (minutes: number) => formatDurationShort(minutes * 60_000);

/** A graph's title, subtitle and, on a summary, the link to its target (also the summary's frame of a graph out of view). */
export function TimelineTitle({ title, subtitle, targetLink }: { title: ReactNode; subtitle: ReactNode; targetLink?: string }) {
  return (
    <>
      <span className="timeline-title">{title}</span>
      <span className="timeline-sub">{subtitle}</span>
      {targetLink && (
        <Link className="timeline-link" to={targetLink}>
          Open target
        </Link>
      )}
    </>
  );
}

export function TimelineGraph(p: TimelineGraphProps) {
  const host = useRef<HTMLDivElement>(null);
  const readout = useRef<HTMLSpanElement>(null);
  const plot = useRef<uPlot>();
  const [width, setWidth] = useState(800);
  const [menu, setMenu] = useState<{ x: number; y: number; atMs: number; comment?: Comment } | null>(null);
  const plotHeight = Math.max(40, p.height - CommentStripPx);
  const series = useBuckets(p.rowId, p.state, Math.max(100, width - 110), p.reloadToken, p.newestSampleMs === undefined ? p.state.newestSampleMs : p.newestSampleMs);
  const view = viewportRange(p.state);
  // Stretches without samples and why (issue 40 item 2): drawn as gaps with a marker.
  const gaps = useMemo(() => timelineGaps(series.points, series.periodMs, p.intervalMs, series.outages, Date.now()), [series, p.intervalMs]);
  // Loss as the share lost per bucket of ten rounds or more (issue 41 item 2).
  const losses = useMemo(() => lossBuckets(series.points, series.periodMs, p.intervalMs), [series, p.intervalMs]);
  const latest = useRef({ ...p, periodMs: series.periodMs, gaps, losses });
  latest.current = { ...p, periodMs: series.periodMs, gaps, losses };

  // Columns for uPlot: bucket centres, min, max, avg, loss %, with a null row in each gap
  // (uPlot joins neighbouring values unless a null lies between them).
  const data = useMemo(
    () => timelineColumns(series.points, series.periodMs, gaps, (v) => (isMeasuredLatency(v) ? v : null), lossPercent) as uPlot.AlignedData,
    [series, gaps],
  );

  // The latency axis: fixed from Settings, or grown with the data on screen (shrinks only past 15%).
  const autoScale = useRef(10);
  const topOnScreen = useMemo(() => {
    let top = 0;
    const [xs, , max] = data as [number[], (number | null)[], (number | null)[]];
    for (let i = 0; i < xs.length; i++) if (xs[i] >= view.startMs && xs[i] <= view.endMs && (max[i] ?? 0) > top) top = max[i]!;
    return top;
  }, [data, view.startMs, view.endMs]);
  const scaleMax = useMemo(() => {
    if (p.fixedScaleMs) return p.fixedScaleMs;
    autoScale.current = nextAutomaticScale(autoScale.current, topOnScreen);
    return autoScale.current;
  }, [topOnScreen, p.fixedScaleMs]);
  // A fixed scale that flattens the line (a LAN path on the default 100 ms) says so.
  const scaleNote = fixedScaleNote(p.fixedScaleMs, topOnScreen);
  const scaleRef = useRef(scaleMax);
  scaleRef.current = scaleMax;

  useEffect(() => {
    const el = host.current!;
    const opts: uPlot.Options = {
      width: el.clientWidth || 800,
      height: plotHeight,
      ms: 1,
      legend: { show: false },
      cursor: { drag: { x: false, y: false, setScale: false }, points: { show: false }, y: false },
      scales: {
        x: { time: true, auto: false },
        ms: { auto: false, range: () => [0, scaleRef.current] },
        pl: { auto: false, range: [0, 100] },
      },
      axes: [
        // Time axis: 38 px holds the clock line and the date under the first tick (uPlot's 50
        // left a small window's graph only a sliver of plot).
        { stroke: '#64748b', space: 80, size: 38, gap: 3, grid: { stroke: 'rgba(100,116,139,0.12)' }, ticks: { stroke: 'rgba(100,116,139,0.25)' }, font: '11px Inter, system-ui, sans-serif' },
        {
          scale: 'ms',
          label: 'Latency (ms)',
          labelSize: 16,
          labelFont: '600 11px Inter, system-ui, sans-serif',
          size: 46,
          stroke: '#64748b',
          // As many decimals as the tick step needs: a LAN's 0.01 ms steps read "0.03", not "0.0".
          // The labels also go on the element, for tests (the axis is drawn on the canvas).
          values: (_u, splits, _axis, _space, step) => {
            const labels = splits.map((v) => latencyTickText(v, step));
            el.dataset.latencyTicks = labels.join(' ');
            return labels;
          },
          font: '11px Inter, system-ui, sans-serif',
          grid: { stroke: 'rgba(100,116,139,0.12)' },
          ticks: { stroke: 'rgba(100,116,139,0.25)' },
        },
        {
          scale: 'pl',
          side: 1,
          label: 'Packet Loss %',
          labelSize: 16,
          labelFont: '600 11px Inter, system-ui, sans-serif',
          size: 40,
          stroke: LossColour,
          font: '11px Inter, system-ui, sans-serif',
          grid: { show: false },
          ticks: { stroke: 'rgba(225,29,72,0.3)' },
          // Five labels need about 90 px; a short plot (small window, many graphs) gets three.
          splits: (u) => (u.bbox.height / devicePixelRatio < 90 ? [0, 50, 100] : [0, 25, 50, 75, 100]),
        },
      ],
      series: [
        {},
        { scale: 'ms', stroke: 'transparent', points: { show: false } },
        { scale: 'ms', stroke: 'transparent', points: { show: false } },
        { scale: 'ms', stroke: LatencyLine, width: 1.6, points: { show: false }, spanGaps: false },
        {
          scale: 'pl',
          // The loss axis's series; its bars are the loss buckets, drawn by the drawAxes hook.
          width: 0,
          points: { show: false },
          paths: () => null,
        },
      ],
      bands: [{ series: [2, 1], fill: LatencyBand }],
      hooks: {
        drawClear: [
          (u) => {
            // Warn and Bad bands behind the data.
            const { warnMs, badMs } = latest.current;
            const ctx = u.ctx;
            const { left, top, width: w, height: h } = u.bbox;
            const y = (v: number) => u.valToPos(v, 'ms', true);
            const warnY = Math.max(top, Math.min(top + h, y(warnMs)));
            const badY = Math.max(top, Math.min(top + h, y(badMs)));
            ctx.save();
            ctx.fillStyle = WarnBand;
            ctx.fillRect(left, badY, w, warnY - badY);
            ctx.fillStyle = BadBand;
            ctx.fillRect(left, top, w, badY - top);
            ctx.restore();
          },
        ],
        drawAxes: [
          (u) => {
            // Loss bars behind the latency line: each loss bucket's share lost over the time
            // its samples cover. Read at each draw: a hop's loss can become (or stop being)
            // loss on the path.
            const ctx = u.ctx;
            const { left, top, width: w, height: h } = u.bbox;
            ctx.save();
            ctx.beginPath();
            ctx.rect(left, top, w, h);
            ctx.clip();
            ctx.fillStyle = latest.current.lossMuted ? MutedLossFill : 'rgba(225,29,72,0.8)';
            for (const b of latest.current.losses) {
              if (b.lost <= 0) continue;
              const x1 = u.valToPos(b.startMs, 'x', true);
              const x2 = u.valToPos(b.endMs, 'x', true);
              if (x2 < left || x1 > left + w) continue;
              const y = u.valToPos(b.percent, 'pl', true);
              ctx.fillRect(x1, y, Math.max(1, x2 - x1 - devicePixelRatio), top + h - y);
            }
            ctx.restore();
          },
        ],
        draw: [
          (u) => {
            if (u.data[0].length > 0) latest.current.onDrawnWithData?.(latest.current.rowId);
          },
          (u) => {
            // The statistics focus: shaded outside it when it is not the whole viewport.
            const s = latest.current.state;
            if (s.focusMode === FocusMode.Viewport) return;
            const r = statsRange(s);
            const ctx = u.ctx;
            const { left, top, width: w, height: h } = u.bbox;
            const x1 = Math.max(left, u.valToPos(r.startMs, 'x', true));
            const x2 = Math.min(left + w, u.valToPos(r.endMs, 'x', true));
            ctx.save();
            ctx.fillStyle = 'rgba(15, 23, 42, 0.06)';
            if (x1 > left) ctx.fillRect(left, top, x1 - left, h);
            if (x2 < left + w) ctx.fillRect(x2, top, left + w - x2, h);
            ctx.strokeStyle = 'rgba(13,148,136,0.7)';
            ctx.lineWidth = 1;
            ctx.strokeRect(x1, top + 0.5, Math.max(1, x2 - x1), h - 1);
            ctx.restore();
          },
        ],
        setScale: [
          (u, key) => {
            // The range the time axis is drawn for, on the element: tests compare it with the
            // viewport, the comment markers and the readout.
            if (key !== 'x' || u.scales.x.min == null || u.scales.x.max == null) return;
            el.dataset.axisStartMs = String(Math.round(u.scales.x.min));
            el.dataset.axisEndMs = String(Math.round(u.scales.x.max));
          },
        ],
        setCursor: [
          (u) => {
            const el = readout.current;
            if (!el) return;
            // The nearest bucket with samples (no further than a gap's threshold) and its
            // time; in a gap, the gap's reason at the time under the pointer.
            const left = u.cursor.left;
            if (left === undefined || left < 0) return void (el.textContent = '');
            const { periodMs, intervalMs, gaps: known, losses: loss } = latest.current;
            const cursorMs = u.posToVal(left, 'x');
            const gap = gapAt(known, cursorMs);
            const lossShareAt = (startMs: number) => lossBucketAt(loss, startMs)?.percent ?? null;
            const bucket = gap ? null : readoutBucketAt(u.data as Parameters<typeof readoutBucketAt>[0], periodMs, cursorMs, gapThresholdMs(intervalMs, periodMs), lossShareAt);
            el.textContent = hoverReadoutText(cursorMs, bucket, gap ? GapReasonText[gap.reason] : undefined);
          },
        ],
      },
    };
    const u = new uPlot(opts, [[], [], [], [], []], el);
    plot.current = u;
    const ro = new ResizeObserver(() => {
      const w = el.clientWidth;
      if (w > 0) {
        u.setSize({ width: w, height: u.height });
        setWidth(w);
      }
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.destroy();
      plot.current = undefined;
    };
    // The plot is built once; data, size and scales are pushed in by the effects below.
  }, []);

  useEffect(() => {
    plot.current?.setSize({ width: plot.current.width, height: plotHeight });
  }, [plotHeight]);

  useEffect(() => {
    plot.current?.redraw(false);
  }, [p.lossMuted]);

  useEffect(() => {
    const u = plot.current;
    if (!u) return;
    u.batch(() => {
      u.setData(data, false);
      u.setScale('x', { min: view.startMs, max: view.endMs });
      // The latency axis follows the scale: uPlot reads a fixed range only when it is set, and
      // the axis stayed at the scale of the plot's first render (100 ms before Settings loaded).
      u.setScale('ms', { min: 0, max: scaleMax });
    });
  }, [data, view.startMs, view.endMs, scaleMax, p.warnMs, p.badMs, p.state.focusMode, p.state.statsEndMs, p.state.statsPeriodMs]);

  // Gestures on the plot area.
  useEffect(() => {
    const u = plot.current;
    if (!u) return;
    const over = u.over;
    let drag: { x: number; moved: boolean } | null = null;
    const timeAt = (clientX: number) => u.posToVal(clientX - over.getBoundingClientRect().left, 'x');
    const down = (e: MouseEvent) => {
      if (e.button !== 0) return;
      drag = { x: e.clientX, moved: false };
      e.preventDefault();
    };
    const move = (e: MouseEvent) => {
      if (!drag) return;
      const dx = e.clientX - drag.x;
      if (Math.abs(dx) < 2) return;
      drag.x = e.clientX;
      drag.moved = true;
      const s = latest.current.state;
      latest.current.dispatch({ type: 'pan', deltaMs: dragDeltaMs(dx, u.bbox.width / devicePixelRatio, s.viewportPeriodMs) });
    };
    const up = () => (drag = null);
    const wheel = (e: WheelEvent) => {
      e.preventDefault();
      latest.current.dispatch({ type: 'zoom', factor: wheelZoomFactor(e.deltaY), atMs: timeAt(e.clientX) });
    };
    const dbl = (e: MouseEvent) => latest.current.dispatch({ type: 'doubleClick', atMs: timeAt(e.clientX) });
    const ctxMenu = (e: MouseEvent) => {
      e.preventDefault();
      setMenu({ x: e.clientX, y: e.clientY, atMs: timeAt(e.clientX), comment: commentNear(e.clientX) });
    };
    const commentNear = (clientX: number) => {
      const left = over.getBoundingClientRect().left;
      let best: Comment | undefined;
      let bestD = CommentHitPx + 1;
      for (const c of latest.current.comments) {
        const d = Math.abs(u.valToPos(Date.parse(c.When), 'x') + left - clientX);
        if (d < bestD) (best = c), (bestD = d);
      }
      return best;
    };
    over.addEventListener('mousedown', down);
    window.addEventListener('mousemove', move);
    window.addEventListener('mouseup', up);
    over.addEventListener('wheel', wheel, { passive: false });
    over.addEventListener('dblclick', dbl);
    over.addEventListener('contextmenu', ctxMenu);
    return () => {
      over.removeEventListener('mousedown', down);
      window.removeEventListener('mousemove', move);
      window.removeEventListener('mouseup', up);
      over.removeEventListener('wheel', wheel);
      over.removeEventListener('dblclick', dbl);
      over.removeEventListener('contextmenu', ctxMenu);
    };
  }, []);

  const u = plot.current;
  const plotLeft = u ? u.bbox.left / devicePixelRatio : 46;
  const plotWidth = u ? u.bbox.width / devicePixelRatio : width - 86;
  const xOf = (ms: number) => plotLeft + ((ms - view.startMs) / (view.endMs - view.startMs)) * plotWidth;
  const plotTop = u ? u.bbox.top / devicePixelRatio : 0;
  const plotHeightPx = u ? u.bbox.height / devicePixelRatio : plotHeight - 38;
  const shownGaps = gaps.filter((g) => g.endMs > view.startMs && g.startMs < view.endMs);
  // The x values where the plotted average is null (the line breaks there): tests read them.
  const lineBreaks = (data[0] as number[]).filter((x, i) => data[3][i] === null && x >= view.startMs && x <= view.endMs);
  // The loss bars on screen (tests read them): start, end and share lost.
  const shownLoss = losses.filter((b) => b.lost > 0 && b.endMs > view.startMs && b.startMs < view.endMs).map((b) => [b.startMs, b.endMs, Math.round(b.percent * 10) / 10]);

  const menuItems = (m: { atMs: number; comment?: Comment }): MenuItem[] => [
    ...ViewPeriodPresetsMinutes.map((min) => ({
      label: `Show ${periodLabel(min)}`,
      checked: p.state.viewportPeriodMs === min * 60_000,
      onSelect: () => p.dispatch({ type: 'choosePeriod', periodMs: min * 60_000 }),
    })),
    { label: ResetToCurrentLabel, onSelect: () => p.dispatch({ type: 'resetToCurrent', nowMs: Date.now() }), separator: true },
    ...(p.canComment
      ? [
          { label: 'Create comment...', separator: true, onSelect: () => p.onComment({ kind: 'create', atMs: Math.min(m.atMs, Date.now()) }) },
          { label: 'Edit comment...', disabled: !m.comment, title: m.comment ? undefined : 'Right-click a comment marker', onSelect: () => m.comment && p.onComment({ kind: 'edit', comment: m.comment }) },
          { label: 'Delete comment...', disabled: !m.comment, title: m.comment ? undefined : 'Right-click a comment marker', onSelect: () => m.comment && p.onComment({ kind: 'delete', comment: m.comment }) },
        ]
      : []),
  ];

  const presetValue = ViewPeriodPresetsMinutes.find((min) => min * 60_000 === p.state.viewportPeriodMs);
  return (
    <section className="timeline-graph" data-row-id={p.rowId} data-loss-muted={p.lossMuted} data-gaps={JSON.stringify(shownGaps)} data-line-breaks={JSON.stringify(lineBreaks)} data-loss-bars={JSON.stringify(shownLoss)} data-latency-scale={scaleMax} style={{ height: p.height + 26 }}>
      <header className="timeline-head">
        <TimelineTitle title={p.title} subtitle={p.subtitle} targetLink={p.targetLink} />
        {p.lossMuted && (
          <span className="timeline-muted-loss" title={LossNotOnPathText[p.lossMuted]}>
            loss not on the path
          </span>
        )}
        {scaleNote && (
          <span className="timeline-scale-note" title={FixedScaleNoteTitle}>
            {scaleNote}
          </span>
        )}
        <span className="timeline-readout" ref={readout} />
        <select
          aria-label="Time span"
          className="timeline-span"
          value={presetValue === undefined ? 'custom' : String(presetValue)}
          onChange={(e) =>
            e.target.value === 'reset'
              ? p.dispatch({ type: 'resetToCurrent', nowMs: Date.now() })
              : p.dispatch({ type: 'choosePeriod', periodMs: Number(e.target.value) * 60_000 })
          }
        >
          {presetValue === undefined && <option value="custom">{formatDurationShort(p.state.viewportPeriodMs)}</option>}
          {ViewPeriodPresetsMinutes.map((min) => (
            <option key={min} value={min}>
              {periodLabel(min)}
            </option>
          ))}
          <option value="reset">{ResetToCurrentLabel}</option>
        </select>
      </header>
      <div className="timeline-plot-wrap">
        <div className="timeline-plot" ref={host} />
        {shownGaps.map((g) => (
          <GapMarker key={g.startMs} gap={g} left={Math.max(plotLeft, xOf(g.startMs))} right={Math.min(plotLeft + plotWidth, xOf(g.endMs))} top={plotTop} height={plotHeightPx} />
        ))}
      </div>
      <div className="comment-strip" style={{ height: CommentStripPx }} data-testid="comment-strip">
        {p.comments.map((c) => {
          const t = Date.parse(c.When);
          if (t < view.startMs || t > view.endMs) return null;
          return (
            <button
              key={c.Id}
              type="button"
              className="comment-marker"
              style={{ left: xOf(t) - 6, background: CommentColour }}
              title={`${new Date(t).toLocaleString()}: ${c.Text}`}
              aria-label={`Comment: ${c.Text}`}
              onContextMenu={(e) => {
                e.preventDefault();
                setMenu({ x: e.clientX, y: e.clientY, atMs: t, comment: c });
              }}
              onDoubleClick={() => p.canComment && p.onComment({ kind: 'edit', comment: c })}
            />
          );
        })}
      </div>
      {menu && <PopupMenu x={menu.x} y={menu.y} items={menuItems(menu)} onClose={() => setMenu(null)} />}
    </section>
  );
}

/**
 * A gap's marker over the plot: dashed lines where the samples stopped and started again, a
 * light hatch between, and the reason ("Agent offline", "Server down", "Trace paused").
 * It lets the pointer through: drag, zoom and the readout (which names the gap) still work.
 */
function GapMarker({ gap, left, right, top, height }: { gap: TimelineGap; left: number; right: number; top: number; height: number }) {
  if (right <= left) return null;
  return (
    <div
      className={`gap-marker gap-${gap.reason}`}
      data-reason={gap.reason}
      data-start-ms={gap.startMs}
      data-end-ms={gap.endMs}
      title={gapMarkerTitle(gap, (ms) => clock(new Date(ms)))}
      style={{ left, width: right - left, top, height }}
    >
      {right - left >= 24 && <span className="gap-label">{GapReasonText[gap.reason]}</span>}
    </div>
  );
}
