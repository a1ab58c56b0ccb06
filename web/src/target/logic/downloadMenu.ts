// The target window's download menu (issue 18 item 4): the data file (.pp2) of the whole
// target or of the view, and the CSV and JSON reports of the statistics focus (per-hop
// statistics, raw samples), each a GET the browser downloads; and the note shown when a
// range reaches back before the raw samples the server keeps.
import type { TimeRange } from './graphTimeState';

export interface DownloadItem {
  label: string;
  url: string;
  /** The file name offered for answers without content-disposition (JSON reports). */
  fileName?: string;
  /** The range the item covers (undefined: the whole target). */
  range?: TimeRange;
}

const iso = (ms: number) => new Date(ms).toISOString();
const query = (id: string, range: TimeRange | undefined, extra: Record<string, string> = {}) => {
  const q = new URLSearchParams({ ID: id });
  if (range) {
    q.set('BeginTime', iso(range.startMs));
    q.set('EndTime', iso(range.endMs));
  }
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return q.toString();
};

/** A name safe for a file: the target's text with anything unusual as "_". */
export const fileStem = (target: string) => target.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '') || 'target';

export function downloadItems(targetId: string, target: string, view: TimeRange, focus: TimeRange): DownloadItem[] {
  const stem = fileStem(target);
  return [
    { label: 'Data file (.pp2), whole target', url: `/api/data/DownloadPP2File?${query(targetId, undefined)}` },
    { label: 'Data file (.pp2), the graph view', url: `/api/data/DownloadPP2File?${query(targetId, view)}`, range: view },
    { label: 'Hop report of the focus (CSV)', url: `/api/data/HopReport?${query(targetId, focus, { Format: 'csv' })}`, range: focus },
    { label: 'Hop report of the focus (JSON)', url: `/api/data/HopReport?${query(targetId, focus, { Format: 'json' })}`, fileName: `${stem}-hops.json`, range: focus },
    { label: 'Samples of the focus (CSV)', url: `/api/data/SamplesReport?${query(targetId, focus, { Format: 'csv' })}`, range: focus },
    { label: 'Samples of the focus (JSON)', url: `/api/data/SamplesReport?${query(targetId, focus, { Format: 'json' })}`, fileName: `${stem}-samples.json`, range: focus },
  ];
}

/**
 * Said when a range (or the whole target, from its first sample) starts before the raw
 * samples kept: the data file and the samples report hold none before that time (the
 * graphs still show the rollups). Null when every range is within raw retention.
 */
export function retentionNote(
  rawDays: number,
  rawKeptSinceMs: number,
  firstSampleMs: number | null,
  view: TimeRange,
  formatTime: (ms: number) => string = (ms) => new Date(ms).toLocaleString(),
): string | null {
  const starts = [view.startMs, ...(firstSampleMs === null ? [] : [firstSampleMs])];
  if (Math.min(...starts) >= rawKeptSinceMs) return null;
  return `Raw samples are kept ${rawDays === 1 ? '1 day' : `${rawDays} days`}: a data file or samples report holds none before ${formatTime(rawKeptSinceMs)} (the graphs still show the older rollups).`;
}
