// Which hops have a timeline graph (spec 2 sections 2 and 9): stored per target under
// Visible_Graphs_{targetId}. The stored form is a decision (the spec names only the key): a
// JSON list of host ids. With nothing usable stored, the final hop (the target itself) is shown.
import { HeaderRowHostId } from './constants';

/** Reads the stored host ids; null when missing or not a list of numbers. */
export function parseVisibleGraphs(raw: string | null | undefined): number[] | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return null;
    return value.filter((id): id is number => Number.isInteger(id) && id !== HeaderRowHostId);
  } catch {
    return null;
  }
}

export function serializeVisibleGraphs(hostIds: readonly number[]): string {
  return JSON.stringify([...new Set(hostIds)]);
}

/**
 * The hops to graph, in hop order: the stored ones that exist, or the final hop when none of
 * the stored ones exist (or nothing is stored).
 */
export function visibleGraphHosts(stored: readonly number[] | null, hostIds: readonly number[]): number[] {
  const hops = hostIds.filter((id) => id !== HeaderRowHostId);
  const wanted = new Set(stored ?? []);
  const shown = hops.filter((id) => wanted.has(id));
  if (shown.length > 0) return shown;
  return hops.length > 0 ? [hops[hops.length - 1]] : [];
}

/** The stored list after a graph is shown or hidden. */
export function toggleVisibleGraph(current: readonly number[], hostId: number, visible: boolean): number[] {
  const rest = current.filter((id) => id !== hostId);
  return visible ? [...rest, hostId].sort((a, b) => a - b) : rest;
}
