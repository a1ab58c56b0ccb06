// The Focus picker: its choices and how its text becomes a focus (spec 2 section 5): text
// containing "all" = all samples, containing "auto" = viewport, anything else is a period;
// a zero (or unreadable) period is ignored.
import { FocusChoiceLabels, FocusMode } from './constants';
import { parseDurationText } from './duration';

export type FocusChoice =
  | { focusMode: typeof FocusMode.AllSamples }
  | { focusMode: typeof FocusMode.Viewport }
  | { focusMode: typeof FocusMode.Explicit; statsPeriodMs: number };

/** The picker text as a focus, or null when it must be ignored. */
export function parseFocusChoiceText(text: string): FocusChoice | null {
  const lower = text.trim().toLowerCase();
  if (lower.includes('all')) return { focusMode: FocusMode.AllSamples };
  if (lower.includes('auto')) return { focusMode: FocusMode.Viewport };
  const periodMs = parseDurationText(lower);
  if (periodMs === null || periodMs <= 0) return null;
  return { focusMode: FocusMode.Explicit, statsPeriodMs: periodMs };
}

/** The picker's fixed choices, in order, each with the focus it sets. */
export const FocusChoices: ReadonlyArray<{ label: string; choice: FocusChoice }> = FocusChoiceLabels.map((label) => {
  const choice = parseFocusChoiceText(label);
  if (!choice) throw new Error(`Focus choice ${label} does not parse`);
  return { label, choice };
});
