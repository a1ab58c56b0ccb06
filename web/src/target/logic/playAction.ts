// What the play button does (spec 2 section 4: running -> pauses; paused with unchanged text
// -> resumes; with new text -> starts a new trace), and the target entry's text state.
//
// Why the entry is a reducer: the entry shows the open target's name once the server has
// answered. That answer may come after the user has begun typing (a slow first load of "/",
// or a refresh after the Trace Interval changed); writing the name over typed text made the
// text "unchanged" again, so the play button resumed the paused target instead of starting
// the typed one. A name from the server now fills the entry only while the user has not typed.

export type PlayAction = 'start' | 'pause' | 'resume';

export interface EntryState {
  text: string;
  /** The user typed (or picked from the history) since the target's name was shown. */
  edited: boolean;
}

export type EntryEvent =
  | { type: 'typed'; text: string }
  /** The open target's name as the server reports it. */
  | { type: 'targetName'; name: string }
  /** Release Focus: an empty entry for a new target. */
  | { type: 'cleared' };

export const initialEntryState: EntryState = { text: '', edited: false };

export function entryReducer(state: EntryState, e: EntryEvent): EntryState {
  switch (e.type) {
    case 'typed':
      return { text: e.text, edited: true };
    case 'targetName':
      return state.edited ? state : state.text === e.name ? state : { text: e.name, edited: false };
    case 'cleared':
      return { text: '', edited: true };
  }
}

export interface PlayInputs {
  /** A target is open and its details are loaded. */
  hasTarget: boolean;
  /** Release Focus was used: the entry names a new target. */
  newTargetMode: boolean;
  running: boolean;
  entryText: string;
  /** The open target's name as the entry shows it unedited. */
  targetName: string;
}

export function playAction(p: PlayInputs): PlayAction {
  if (!p.hasTarget || p.newTargetMode || p.entryText.trim() !== p.targetName.trim()) return 'start';
  return p.running ? 'pause' : 'resume';
}
