// Summary calls the shell needs (the summaries screens come with their own issue).
import { get, withQuery } from './http';

/** The summary as the shell sees it (spec 1 section 3). */
export interface SummaryInfo {
  Name: string;
  UniqueID: string;
  TargetCount: number;
  IsAllTargets: boolean;
}

/** GET /cmd/getsummaries: the all-targets summary first, then the named ones. */
export const getSummaries = () => get<SummaryInfo[]>('/cmd/getsummaries');

export const newSummary = (name: string) => get<SummaryInfo>(withQuery('/cmd/newsummary', { name }));
