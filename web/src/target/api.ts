// The target window's calls (spec 2 section 7), through the console's fetch wrapper so every
// failure takes the shell's error path. Client call guards of spec 2 section 5 are here.
import { get, patch, request, withQuery } from '../api/http';
import type { DataPointBuckets } from '../../../server/contract/data';
import type { Comment, DisplaySettings, SettingsListItem } from '../../../server/contract/summaries';
import type { ColumnDef, GraphRowsResult, TargetIdResult } from '../../../server/contract/targets';

function need(name: string, value: unknown): void {
  if (value === undefined || value === null || value === '') throw new Error(`${name} is required.`);
}

export interface NewTargetArgs {
  target: string;
  traceIntervalMs: number;
  configId?: number;
  agentId?: number;
}

export const newTarget = (a: NewTargetArgs) =>
  get<TargetIdResult>(withQuery('/cmd/newtarget', { target: a.target, traceInterval: a.traceIntervalMs / 1000, configID: a.configId, agentID: a.agentId }));
export const stopTrace = (id: string) => get<null>(withQuery('/cmd/stoptrace', { ID: id }));
export const resumeTrace = (id: string) => get<null>(withQuery('/cmd/resumetrace', { ID: id }));
export const resetTrace = (id: string) => get<TargetIdResult>(withQuery('/cmd/resettrace', { ID: id }));
export const closeTarget = (id: string) => get<null>(withQuery('/cmd/close', { ID: id }));
export function finalHop(ids: string[]) {
  const q = new URLSearchParams();
  for (const id of ids) q.append('Ids', id);
  return get<null>(`/cmd/finalHop?${q}`);
}
export function updateConfigurationId(webId: string, configId: number) {
  need('configId', configId);
  return get<null>(withQuery('/cmd/updateConfigurationId', { webId, configId }));
}
export type { SettingsListItem };
export const getSettingsList = () => get<SettingsListItem[]>('/cmd/getsettingslist');
export function updateTraceInterval(webId: string, traceIntervalInMS: number) {
  need('traceIntervalInMS', traceIntervalInMS);
  return get<null>(withQuery('/cmd/updateTraceInterval', { webId, traceIntervalInMS }));
}

/** Grid rows of one target with statistics over [startMs, endMs]. */
export function traceGraphRows(targetId: string, range: { startMs: number; endMs: number } | null, signal?: AbortSignal) {
  const query: Record<string, string | number> = { listType: 'Target', uniqueID: targetId, 'requests[0].ID': targetId };
  if (range) {
    query['requests[0].Start'] = Math.floor(range.startMs);
    query['requests[0].End'] = Math.ceil(range.endMs);
  }
  return get<GraphRowsResult>(withQuery('/api/data/TraceGraphRows', query), { signal });
}

export function dataPointBuckets(targetId: string, startMs: number, endMs: number, periodSeconds: number, includeJitter: boolean, signal?: AbortSignal) {
  need('startTime', startMs);
  need('endTime', endMs);
  need('periodSeconds', periodSeconds);
  return get<DataPointBuckets>(
    withQuery('/api/data/DataPointBuckets', { targetId, startTime: Math.floor(startMs), endTime: Math.ceil(endMs), periodSeconds, includeJitter }),
    { signal },
  );
}

export const columnDefs = (uniqueID: string) => get<ColumnDef[]>(withQuery('/api/data/ColumnDefs', { uniqueID }));
export const displaySettings = (configId: number) => get<DisplaySettings>(withQuery('/api/data/DisplaySettings', { configId }));

export function getComments(sessionWebId: string, startMs: number, endMs: number) {
  need('startDate', startMs);
  need('endDate', endMs);
  return get<Comment[]>(
    withQuery('/cmd/getcomments', { sessionWebId, startDate: new Date(startMs).toISOString(), endDate: new Date(endMs).toISOString() }),
  );
}
export const createComment = (c: Omit<Comment, 'Id'> & { Id?: number }) => request<Comment>('PUT', '/cmd/createcomment', { json: c });
export const updateComment = (c: Comment) => patch<Comment>('/cmd/updatecomment', { json: c });
export const deleteComment = (sessionWebId: string, commentId: number) =>
  request<null>('DELETE', withQuery('/cmd/deletecomment', { sessionWebId, commentId }));

// Trace history (key TraceTargetHistory): the user's list, falling back on the server side.
const HistoryKey = 'TraceTargetHistory';
export async function getTraceHistory(): Promise<string[]> {
  const text = await get<string>(withQuery('/api/kvp/get', { Type: 'AccountAndUser', KeyName: HistoryKey }));
  if (!text) return [];
  const list: unknown = JSON.parse(text);
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
}
export const setTraceHistory = (list: string[], type: 'AccountAndUser' | 'Account' = 'AccountAndUser') =>
  request<null>('PUT', withQuery('/api/kvp/set', { Type: type, KeyName: HistoryKey }), { json: { Value: JSON.stringify(list) } });
export const getDefaultTraceHistory = () => get<string[]>('/api/data/GetDefaultTraceHistory');
