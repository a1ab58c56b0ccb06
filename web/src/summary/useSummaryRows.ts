// The summary grid's rows: TraceGraphRows (listType Summary, one row per target with its
// final hop's figures) over the statistics focus, read again as the hub reports new samples of
// a member (SummaryHostUpdated, batched over 150 ms and at most one batch a second: its members
// report all the time, SummaryRowRefreshGapMs), a change of the summary (SummaryChanged)
// or of the account's targets (SessionsChanged: a trace started or closed), and focus changes
// (debounced 100 ms). Joins the summary's hub group (RegisterForChangesToSummary) while shown.
import { useAtomValue } from 'jotai';
import { keepRegistered, subscribe } from '../hub/connection';
import { sessionsVersionAtom } from '../hub/hubEvents';
import { SummaryRowRefreshGapMs } from '../target/logic/constants';
import type { TimeRange } from '../target/logic/graphTimeState';
import { useLiveRows, type LiveRowsSource, type RowsState } from '../target/useLiveRows';
import { summaryRows } from './api';

const summaryRowsSource: LiveRowsSource = {
  read: summaryRows,
  minBatchGapMs: SummaryRowRefreshGapMs,
  live: (summaryId, on) => {
    const offHost = subscribe('SummaryHostUpdated', (id, _hostId, time) => String(id) === summaryId && on.sample(time));
    const offChanged = subscribe('SummaryChanged', (id) => String(id) === summaryId && on.changed());
    const leave = keepRegistered('RegisterForChangesToSummary', 'UnregisterForChangesToSummary', summaryId);
    return () => {
      offHost();
      offChanged();
      leave();
    };
  },
};

export function useSummaryRows(summaryId: string | undefined, range: TimeRange, onNewSamples: (newestMs: number) => void): { rows: RowsState; refresh: () => void } {
  const sessionsVersion = useAtomValue(sessionsVersionAtom);
  return useLiveRows(summaryId, range, onNewSamples, summaryRowsSource, [sessionsVersion]);
}
