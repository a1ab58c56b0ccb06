// The alerts page calls (spec 3 section 7.3; server/alerts/pages.ts).
import type { ActionTestResult } from '../../../server/contract/alerts';
import { get, post, withQuery } from '../api/http';

export interface AlertPageAnswer {
  HTML: string;
  EditableSettings: { Root: Record<string, unknown> };
}

export const getAlertPage = (page: string, parameters: unknown, selectedTargets: readonly string[], signal?: AbortSignal) =>
  get<AlertPageAnswer>(
    withQuery('/cmd/getpage', { page, parameters: JSON.stringify(parameters ?? {}), selectedTargets: JSON.stringify(selectedTargets), settings: '{}' }),
    { signal },
  );

export interface FinishArgs {
  SerializedData: string;
  SessionID?: number;
  HostID?: number;
  SelectedTargets: string;
}

export const finishAlert = (body: FinishArgs) => post<AlertPageAnswer>('/cmd/finishalert', { json: body });

export const testAlertAction = (body: FinishArgs) => post<ActionTestResult>('/cmd/testalertaction', { json: body });
