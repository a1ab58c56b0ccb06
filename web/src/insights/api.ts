// The Insights calls (spec 3 section 7.1) with the client guards of spec 3 section 8:
// runTargetWisdomTests needs startTime, endTime and includeDetails; getWisdomDefaultTimeRange
// needs periodMinutes; kvp get and set need Type.
import { get, request, withQuery } from '../api/http';
import type { WisdomFeedback, WisdomResult, WisdomTimeRange } from '../../../server/contract/insights';
import { KvpKey } from '../../../server/contract/summaries';

function need(name: string, value: unknown): void {
  if (value === undefined || value === null || value === '') throw new Error(`${name} is required.`);
}

export function getWisdomDefaultTimeRange(id: string, periodMinutes: number) {
  need('periodMinutes', periodMinutes);
  return get<WisdomTimeRange>(withQuery('/api/data/GetWisdomDefaultTimeRange', { id, periodMinutes }));
}

export function runTargetWisdomTests(id: string, startTime: string, endTime: string, includeDetails: boolean, testIds?: number[]) {
  need('startTime', startTime);
  need('endTime', endTime);
  need('includeDetails', includeDetails);
  return get<WisdomResult>(withQuery('/api/data/RunTargetWisdomTests', { id, startTime, endTime, includeDetails, testIds: testIds?.join(',') }));
}

export const addFeedback = (f: WisdomFeedback) => request<{ Id: number }>('POST', '/api/data/AddFeedback', { json: f });

type InsightKey = typeof KvpKey.InsightOptIn | typeof KvpKey.InsightHideTip;

/** A stored user flag: "true"/"false" text; anything else (or nothing) reads as false. */
export async function getUserFlag(key: InsightKey, type = 'User'): Promise<boolean> {
  need('Type', type);
  const text = await get<string>(withQuery('/api/kvp/get', { Type: type, KeyName: key }));
  return parseFlag(text);
}

export function setUserFlag(key: InsightKey, value: boolean, type = 'User') {
  need('Type', type);
  return request<null>('PUT', withQuery('/api/kvp/set', { Type: type, KeyName: key }), { json: { Value: String(value) } });
}

export function parseFlag(text: string | null | undefined): boolean {
  return typeof text === 'string' && text.trim().toLowerCase() === 'true';
}
