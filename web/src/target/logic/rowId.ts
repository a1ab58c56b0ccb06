// Row UniqueIDs of the trace and summary grids (spec 2 section 3): {sessionId}_h_{hostId}.
// The host id is the third underscore-separated part; _h_0 is the header row (not
// selectable) and _h_1 the first hop. Hub events may carry a bare session id or one with
// the _h_ suffix.
import { HeaderRowHostId, RowIdHostMarker } from './constants';

export interface RowId {
  sessionId: string;
  /** null when the id names the session (target) itself, without a host suffix. */
  hostId: number | null;
}

/** Reads a row id; null when it is neither a session id nor {sessionId}_h_{hostId}. */
export function parseRowId(uniqueId: string): RowId | null {
  const parts = uniqueId.split('_');
  if (parts[0] === '') return null;
  if (parts.length === 1) return { sessionId: parts[0], hostId: null };
  if (parts.length !== 3 || parts[1] !== RowIdHostMarker || !/^\d+$/.test(parts[2])) return null;
  return { sessionId: parts[0], hostId: Number(parts[2]) };
}

export function formatRowId(sessionId: string, hostId: number): string {
  return `${sessionId}_${RowIdHostMarker}_${hostId}`;
}

/** The session (target) id of a row id or hub event id, with any _h_ suffix removed. */
export function sessionIdOf(uniqueId: string): string {
  return uniqueId.split('_')[0];
}

/** Header rows end in _h_0. */
export function isHeaderRow(uniqueId: string): boolean {
  return parseRowId(uniqueId)?.hostId === HeaderRowHostId;
}

/** A row can be selected when it is a well-formed row id and not a header row. */
export function isSelectableRow(uniqueId: string): boolean {
  const id = parseRowId(uniqueId);
  return id !== null && id.hostId !== HeaderRowHostId;
}
