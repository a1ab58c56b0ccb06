// Views of the route the tests share: which hops are intermediate, which answered.
import type { HopFigures, HopSeries, TestContext } from './series.js';

export interface PathHop {
  series: HopSeries;
  figures: HopFigures;
}

/** Hops 1..last, where last is the target's hop when it answered, else the deepest hop. */
export function pathHops(ctx: TestContext): PathHop[] {
  return ctx.series.hops.map((series, i) => ({ series, figures: ctx.figures[i] }));
}

/** The hops before the target (all hops when the target never answered). */
export function intermediateHops(ctx: TestContext): PathHop[] {
  const t = ctx.series.targetHop;
  return pathHops(ctx).filter((h) => t === null || h.series.hop < t);
}

export function targetHop(ctx: TestContext): PathHop | undefined {
  const t = ctx.series.targetHop;
  return t === null ? undefined : pathHops(ctx)[t - 1];
}

/** Answering hops after `hop`, the target included. */
export function answeringAfter(ctx: TestContext, hop: number): PathHop[] {
  return pathHops(ctx).filter((h) => h.series.hop > hop && h.figures.answered);
}
