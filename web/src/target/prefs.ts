// The target window's preferences (spec 2 section 9 storage keys), as jotai atoms over
// localStorage. Key names and stored texts are the ones the window always wrote: the column
// list as JSON [{Name, Width}] (logic/columnPrefs), the splitter fraction as a number's text
// (logic/timelineLayout), the graphed hops per target as a JSON list (logic/visibleGraphs).
import { atom, type WritableAtom } from 'jotai';
import { preferenceAtom, type TextStorage } from '../state/preference';
import { parseStoredColumnPrefs, type StoredColumnPref } from './logic/columnPrefs';
import { StorageKeys, visibleGraphsStorageKey } from './logic/constants';
import { splitterFraction } from './logic/timelineLayout';
import { parseVisibleGraphs, serializeVisibleGraphs } from './logic/visibleGraphs';

type Storage = () => TextStorage | undefined;

/** Target-Columns: the shown columns in order with their widths; null when none are stored. */
export const targetColumnsAtomOf = (storage?: Storage) =>
  preferenceAtom<StoredColumnPref[] | null>(StorageKeys.TargetColumns, parseStoredColumnPrefs, (prefs) => JSON.stringify(prefs ?? []), storage);

/** Target-Pane-Splitter-Height: the grid's share of the panes' height (0.7 when unset). */
export const targetSplitterAtomOf = (storage?: Storage) =>
  preferenceAtom<number>(StorageKeys.TargetPaneSplitterHeight, splitterFraction, String, storage);

/** Visible_Graphs_{targetId}: the hops with a timeline graph; null when none are stored. */
export const visibleGraphsAtomOf = (targetId: string, storage?: Storage) =>
  preferenceAtom<number[] | null>(visibleGraphsStorageKey(targetId), parseVisibleGraphs, (hops) => serializeVisibleGraphs(hops ?? []), storage);

export const targetColumnsAtom = targetColumnsAtomOf();
export const targetSplitterAtom = targetSplitterAtomOf();

type VisibleGraphsAtom = WritableAtom<number[] | null, [number[] | null], void>;
const visibleGraphsByTarget = new Map<string, VisibleGraphsAtom>();
/** No target (the new-target screen): nothing graphed, nothing stored. */
const noTargetGraphs: VisibleGraphsAtom = atom(null, () => undefined);

/** The one atom of a target's Visible_Graphs key (one per target, so every reader shares it). */
export function visibleGraphsAtom(targetId: string | undefined): VisibleGraphsAtom {
  if (!targetId) return noTargetGraphs;
  let a = visibleGraphsByTarget.get(targetId);
  if (!a) visibleGraphsByTarget.set(targetId, (a = visibleGraphsAtomOf(targetId)));
  return a;
}

/** hide_agent_name_on_timegraph (web settings): "true" hides the agent name on timeline graphs. */
export const hideAgentNameAtom = preferenceAtom<boolean>(StorageKeys.HideAgentNameOnTimegraph, (t) => t === 'true', String);
