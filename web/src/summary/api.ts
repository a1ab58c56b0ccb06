// The summary screen's calls (spec 2 section 7) through the console's fetch wrapper; hub
// calls go through src/hub/connection. TraceGraphRows needs its listType (spec 2 section 5).
import type { Summary } from '../../../server/contract/summaries';
import type { ColumnDef, GraphRowsResult } from '../../../server/contract/targets';
import { get, withQuery } from '../api/http';
import { getSummaries } from '../api/summaries';
import { invoke } from '../hub/connection';
import { agentPickerVisible } from '../target/logic/agentPicker';
import { columnDefs } from '../target/api';
import { summaryColumnDefs } from './logic/summaryColumns';

export { getSummaries };
export const renameSummary = (summaryId: string, name: string) => get<Summary>(withQuery('/cmd/renamesummary', { name, ID: summaryId }));
export const closeSummary = (summaryId: string) => get<null>(withQuery('/cmd/closesummary', { ID: summaryId }));
export const addHost = (summaryId: string, targetId: string) => get<Summary>(withQuery('/cmd/addhost', { host: targetId, ID: summaryId }));
export const removeFromSummary = (summaryId: string, targetId: string) => get<Summary>(withQuery('/cmd/removefromsummary', { host: targetId, ID: summaryId }));

/** One row per target (its final hop) with statistics over [startMs, endMs]. */
export function summaryRows(summaryId: string, range: { startMs: number; endMs: number } | null, signal?: AbortSignal) {
  const query: Record<string, string | number> = { listType: 'Summary', uniqueID: summaryId, 'requests[0].ID': summaryId };
  if (range) {
    query['requests[0].Start'] = Math.floor(range.startMs);
    query['requests[0].End'] = Math.ceil(range.endMs);
  }
  return get<GraphRowsResult>(withQuery('/api/data/TraceGraphRows', query), { signal });
}

/** The summary grid's ColumnDefs (the server's Summary grid type), with the Agent column only in multi-agent mode. */
export async function summaryGridColumnDefs(summaryId: string): Promise<ColumnDef[]> {
  const [defs, agents] = await Promise.all([columnDefs(`SUM-${summaryId}`), invoke('GetAgents').catch(() => [])]);
  return summaryColumnDefs(defs ?? [], agentPickerVisible(agents ?? []));
}
