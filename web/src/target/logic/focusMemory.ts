// The Focus choice per target for the browser session (issue 15: it fell back to Auto every
// time the user came back to a target). Kept in sessionStorage, not localStorage: a focus
// is part of looking at one target now; a new session starts at the spec's default, Auto.
import { parseFocusChoiceText } from './focusChoice';

/** sessionStorage key of one target's Focus choice (the picker text). */
export function focusStorageKey(targetId: string): string {
  return `Target-Focus_${targetId}`;
}

/** The stored picker text when it still reads as a focus choice, else null (use the default). */
export function storedFocusChoice(text: string | null): string | null {
  if (text === null) return null;
  return parseFocusChoiceText(text) === null ? null : text;
}
