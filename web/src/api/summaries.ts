// Summary calls the shell needs (the sidebar, the home container); the summary screen's own calls are in src/summary/api.ts.
import type { Summary } from '../../../server/contract/summaries';
import { get, withQuery } from './http';

/** The summary as the shell sees it (spec 1 section 3): the contract's Summary. */
export type SummaryInfo = Summary;

/** GET /cmd/getsummaries: the all-targets summary first, then the named ones. */
export const getSummaries = () => get<SummaryInfo[]>('/cmd/getsummaries');

export const newSummary = (name: string) => get<SummaryInfo>(withQuery('/cmd/newsummary', { name }));
