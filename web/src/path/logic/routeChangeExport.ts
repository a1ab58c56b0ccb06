// The route changes list's export (issue 44 item 3): CSV (RFC 4180 quoting) and JSON. Pure.
import type { PathRouteChange } from '../../../../server/contract/path-view';

const quote = (v: string) => (/[",\r\n]/.test(v) || /^[=+\-@]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

export function routeChangesCsv(changes: readonly PathRouteChange[], targetName: (c: PathRouteChange) => string): string {
  const head = ['Time', 'Agent', 'Target', 'Hop', 'Old', 'New'];
  const rows = changes.map((c) => [c.Time, c.AgentName, targetName(c), String(c.Hop), c.Old.join(' '), c.New.join(' ')]);
  return [head, ...rows].map((r) => r.map(quote).join(',')).join('\r\n') + '\r\n';
}

export function routeChangesJson(changes: readonly PathRouteChange[], targetName: (c: PathRouteChange) => string): string {
  return JSON.stringify(changes.map((c) => ({ Time: c.Time, Agent: c.AgentName, Target: targetName(c), TargetId: c.TargetId, Hop: c.Hop, Old: c.Old, New: c.New })), null, 2);
}

/** The ranges the before/after comparison reads around a change at `minuteMs`: up to `spanMs` each side, the change's minute left out. */
export function beforeAfterRanges(minuteMs: number, spanMs = 10 * 60_000): { before: { startMs: number; endMs: number }; after: { startMs: number; endMs: number } } {
  return { before: { startMs: minuteMs - spanMs, endMs: minuteMs }, after: { startMs: minuteMs + 60_000, endMs: minuteMs + 60_000 + spanMs } };
}

/** Nodes only one side has: removed (before only) and added (after only). */
export function changedNodes(before: readonly { Id: string }[], after: readonly { Id: string }[]): { removed: Set<string>; added: Set<string> } {
  const b = new Set(before.map((n) => n.Id));
  const a = new Set(after.map((n) => n.Id));
  return { removed: new Set([...b].filter((id) => !a.has(id))), added: new Set([...a].filter((id) => !b.has(id))) };
}
