// Where a path loses packets (issue 41 item 1; docs/target-window-logic.md "Loss that does
// not carry on"): loss at a hop that the hops after it do not show is not loss on the path.
// A router that never answers traceroute probes while later hops answer is silent, and a hop
// whose loss does not carry on to every later answering hop rate limits its own ICMP answers
// (a red herring). One rule for Insights (server/insights/tests/loss.ts) and the console's
// grid and graphs (web/src/target/), so the two never disagree; pure, no imports.

/** Average loss at or above this (percent) is sustained packet loss. */
export const LossPercent = 2;
/** Loss carries on when every later answering hop loses at least this share of it. */
export const CarryOnShare = 0.5;

/** One hop of a path as the rule reads it. */
export interface HopLoss {
  hop: number;
  /** Lost / sent x 100; NaN (or not finite) when nothing was sent. */
  lossPercent: number;
  /** At least one probe was answered. */
  answered: boolean;
}

/** Why a hop's loss is not loss on the path. */
export type LossNotOnPath = 'Silent' | 'NotCarriedOn';

export interface PathLossFindings<H extends HopLoss> {
  /** The first hop whose loss carries on to the end of the path; undefined when none. */
  start: H | undefined;
  /** Answering hops with loss (>= LossPercent) that does not carry on (ICMP rate limiting). */
  redHerrings: H[];
  /** Hops that sent probes and never answered while a later hop answers. */
  silent: H[];
}

/** Answering hops after `hop` (the target included). */
function answeringAfter<H extends HopLoss>(hops: readonly H[], hop: number): H[] {
  return hops.filter((h) => h.hop > hop && h.answered);
}

/** Loss at `h` carries on when every later answering hop loses at least a share of it. */
function carriesOn<H extends HopLoss>(hops: readonly H[], h: H): boolean {
  const need = Math.max(LossPercent * CarryOnShare, h.lossPercent * CarryOnShare);
  return answeringAfter(hops, h.hop).every((later) => later.lossPercent >= need);
}

/**
 * The path's loss findings. `targetHop` is the hop where the target's own address answered
 * (null when it never did): the last answering hop that is not the target has nothing after
 * it to show whether its loss carries on (routers also rate limit the "unreachable" answers
 * they send there), so it is judged neither way.
 */
export function pathLossFindings<H extends HopLoss>(hops: readonly H[], targetHop: number | null): PathLossFindings<H> {
  const judgeable = (h: H) => h.hop === targetHop || answeringAfter(hops, h.hop).length > 0;
  const lossy = hops.filter((h) => h.answered && h.lossPercent >= LossPercent && judgeable(h));
  const start = lossy.find((h) => carriesOn(hops, h));
  const redHerrings = lossy.filter((h) => !carriesOn(hops, h));
  const silent = hops.filter((h) => !h.answered && h.lossPercent > 0 && answeringAfter(hops, h.hop).length > 0);
  return { start, redHerrings, silent };
}

/** The hops whose loss is not loss on the path, by hop number, with the reason. */
export function lossNotOnPath(hops: readonly HopLoss[], targetHop: number | null): Map<number, LossNotOnPath> {
  const { redHerrings, silent } = pathLossFindings(hops, targetHop);
  const out = new Map<number, LossNotOnPath>();
  for (const h of silent) out.set(h.hop, 'Silent');
  for (const h of redHerrings) out.set(h.hop, 'NotCarriedOn');
  return out;
}

/** What the console says on a hop whose loss is shown muted. */
export const LossNotOnPathText: Record<LossNotOnPath, string> = {
  Silent: 'This router does not answer traceroute probes; later hops do, so the path is not losing packets here.',
  NotCarriedOn: 'This router limits its answers to traceroute probes (its loss does not carry on to later hops), so the path is not losing packets here.',
};
