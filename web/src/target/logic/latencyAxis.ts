// The timeline graphs' latency axis (issue 41 item 2): tick labels with as many decimals as
// the tick step needs (0.01 ms steps read "0.02", "0.04", not "0.0"), and the note a fixed
// scale gets when the latency on screen is too small on it to see (a LAN path on the default
// fixed 100 ms scale is a flat line at 0). Decisions: docs/target-window-logic.md "Graphs that show a LAN".

/** Decimals of a tick step: 0 for 5 or 10, 1 for 0.5, 2 for 0.02 (at most 4). */
export function stepDecimals(stepMs: number): number {
  if (!(stepMs > 0) || stepMs >= 1) return 0;
  for (let d = 1; d < 4; d++) if (Math.abs(Math.round(stepMs * 10 ** d) - stepMs * 10 ** d) < 1e-6) return d;
  return 4;
}

/** A latency tick label: the value with the step's decimals ("0.03", "0.5", "20"). */
export function latencyTickText(valueMs: number, stepMs: number): string {
  return valueMs.toFixed(stepDecimals(stepMs));
}

/** Below this share of a fixed scale, the latency on screen is less than a few pixels tall. */
export const FixedScaleHiddenShare = 0.03;

/**
 * The note a timeline graph shows when a fixed scale (Settings > Display > Graph scale) hides
 * its latency: everything measured on screen lies below 3% of it. Null otherwise.
 */
export function fixedScaleNote(fixedScaleMs: number | null, maxOnScreenMs: number): string | null {
  if (!fixedScaleMs || !(maxOnScreenMs > 0)) return null;
  if (maxOnScreenMs >= fixedScaleMs * FixedScaleHiddenShare) return null;
  return `Scale fixed at ${fixedScaleMs} ms`;
}

/** The note's tooltip: why the line is flat and where to change it. */
export const FixedScaleNoteTitle =
  'The latency on screen is too small to see on this fixed scale. Choose "Automatic" for Graph scale in Settings > Display to fit the axis to the data.';
