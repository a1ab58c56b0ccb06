// The sessions page's rules (spec 2 "Sessions page", sections 3, 4 and 8): the grid's
// columns and cell texts, the per-column filters, the sort (default End descending), and the
// toast texts of the session commands. Pure: no React, no fetch.
import { DynamicDnsMode, type Session } from '../../../../server/contract/sessions';

export type ColumnKey = 'TargetName' | 'TargetIP' | 'DynamicDns' | 'Start' | 'End' | 'Samples' | 'Status' | 'Imported' | 'Agent';

export interface SessionColumn {
  key: ColumnKey;
  title: string;
  width: number;
  numeric?: boolean;
  /** The header's tooltip: what the column counts, where that is not plain. */
  tooltip?: string;
}

/**
 * The Samples unit (issue 41 item 5, docs/sessions.md): one per probe stored, at each hop a
 * round probed, answered or lost. A trace of every hop stores one per hop per round; a
 * final-hop-only trace probes one hop, so one per round.
 */
export const SamplesTooltip = 'Hop samples: one per probe stored, at each hop a round probed (answered or lost). A trace of every hop has one per hop per round; a final-hop-only trace one per round.';

/** Spec 2: Target Name, Target IP, Dynamic DNS, Start, End, Samples, Status, Imported (issue 41 item 5), Agent (multi-agent mode only), Actions. */
export function sessionColumns(multiAgent: boolean): SessionColumn[] {
  const all: SessionColumn[] = [
    { key: 'TargetName', title: 'Target Name', width: 200 },
    { key: 'TargetIP', title: 'Target IP', width: 125 },
    { key: 'DynamicDns', title: 'Dynamic DNS', width: 120 },
    { key: 'Start', title: 'Start', width: 165 },
    { key: 'End', title: 'End', width: 165 },
    { key: 'Samples', title: 'Samples', width: 85, numeric: true, tooltip: SamplesTooltip },
    { key: 'Status', title: 'Status', width: 85 },
    { key: 'Imported', title: 'Imported', width: 96 },
    { key: 'Agent', title: 'Agent', width: 130 },
  ];
  return multiAgent ? all : all.filter((c) => c.key !== 'Agent');
}

/** The minimum column width of spec 2 section 9. */
export const MinColumnWidth = 10;

export interface SessionRow {
  id: number;
  /** Display texts by column. */
  text: Record<ColumnKey, string>;
  /** Sort values by column: numbers sort as numbers. */
  value: Record<ColumnKey, string | number>;
  state: number;
}

/** Spec 2 section 3: value 1 (Auto) shows "N/A (IP Address)", otherwise "Following". */
export const dynamicDnsText = (mode: number) => (mode === DynamicDnsMode.Auto ? 'N/A (IP Address)' : 'Following');

/** What the user traced: the name typed, else the resolved name, else the address (issue 41 item 5: never blank). */
export const targetHost = (s: Pick<Session, 'OriginalTarget' | 'TargetName' | 'TargetIP'>) => s.OriginalTarget.trim() || s.TargetName.trim() || s.TargetIP;

/** A literal IPv4 or IPv6 address (not a name that resolves to one). */
export const isIpLiteral = (host: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || (host.includes(':') && /^[0-9a-f:.]+$/i.test(host.replace(/^\[|\]$/g, '')));

/** A literal IP has nothing to follow: "N/A (IP Address)" whatever the stored mode (issue 41 item 5). */
const sessionDynamicDns = (s: Session) => (isIpLiteral(targetHost(s)) ? dynamicDnsText(DynamicDnsMode.Auto) : dynamicDnsText(s.DynamicDnsMode));

/** The mark that tells an imported session from the live one it was exported from. */
export const importedText = (s: Pick<Session, 'Imported'>) => (s.Imported ? 'Imported' : '');

/** "..." while the count is not loaded (negative). */
export const sampleCountText = (n: number) => (n < 0 ? '...' : n.toLocaleString('en-US'));

// One formatter for every cell: Date.toLocaleString builds one per call, and 20,000 of them
// (Start and End of 10,000 sessions) took seconds in Chromium. Same text as toLocaleString.
const timeFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' });
const defaultTime = (ms: number) => timeFormat.format(ms);

/**
 * A row's cell texts. Start and End are formatted when first read (a drawn row, or a filter
 * on that column) and kept: formatting all 20,000 of 10,000 sessions up front was most of
 * the console's work between the list's answer and the first draw (160 to 200 ms of about
 * 250 in V8 at load 25), for the 30 or so rows on screen.
 */
class RowText implements Record<ColumnKey, string> {
  private start?: string;
  private end?: string;
  constructor(
    readonly TargetName: string,
    readonly TargetIP: string,
    readonly DynamicDns: string,
    readonly Samples: string,
    readonly Status: string,
    readonly Imported: string,
    readonly Agent: string,
    private readonly times: { start: number; end: number | null; format: (ms: number) => string },
  ) {}
  get Start(): string {
    return (this.start ??= this.times.format(this.times.start));
  }
  get End(): string {
    return (this.end ??= this.times.end === null ? '' : this.times.format(this.times.end));
  }
}

export function toRow(s: Session, formatTime: (ms: number) => string = defaultTime): SessionRow {
  const start = Date.parse(s.StartTime);
  const end = s.EndTime === null ? null : Date.parse(s.EndTime);
  return {
    id: s.SessionID,
    state: s.State,
    text: new RowText(s.TargetName.trim() || targetHost(s), s.TargetIP, sessionDynamicDns(s), sampleCountText(s.SampleCount), s.StateString, importedText(s), s.AgentName, { start, end, format: formatTime }),
    value: {
      TargetName: (s.TargetName.trim() || targetHost(s)).toLowerCase(),
      TargetIP: s.TargetIP,
      DynamicDns: sessionDynamicDns(s),
      Start: start,
      // An open session has no end yet: it is the newest, first in End descending.
      End: end ?? Number.MAX_SAFE_INTEGER,
      Samples: s.SampleCount,
      Status: s.StateString,
      Imported: importedText(s),
      Agent: s.AgentName.toLowerCase(),
    },
  };
}

export type Filters = Partial<Record<ColumnKey, string>>;

/** Every non-empty filter must be contained (case-insensitively) in its column's text. */
export function filterRows(rows: readonly SessionRow[], filters: Filters): SessionRow[] {
  const active = (Object.entries(filters) as [ColumnKey, string][]).map(([k, v]) => [k, v.trim().toLowerCase()] as const).filter(([, v]) => v);
  if (!active.length) return [...rows];
  return rows.filter((r) => active.every(([k, v]) => r.text[k].toLowerCase().includes(v)));
}

export interface Sort {
  key: ColumnKey;
  descending: boolean;
}

/** Spec 2 section 9: the session grid's default sort is End descending. */
export const DefaultSort: Sort = { key: 'End', descending: true };

/** A header click: a new column sorts ascending, the same column turns the direction. */
export const nextSort = (sort: Sort, key: ColumnKey): Sort => (sort.key === key ? { key, descending: !sort.descending } : { key, descending: false });

/** Sorted copy; ties by session id in the same direction, so the order is stable. */
export function sortRows(rows: readonly SessionRow[], sort: Sort): SessionRow[] {
  const dir = sort.descending ? -1 : 1;
  return [...rows].sort((a, b) => {
    const x = a.value[sort.key];
    const y = b.value[sort.key];
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return dir * (c || a.id - b.id);
  });
}

export type CommandVerb = 'OPEN' | 'DELETE' | 'EXPORT';
const participle = { OPEN: 'opened', DELETE: 'deleted', EXPORT: 'exported' } as const;
const gerund = { OPEN: 'opening', DELETE: 'deleting', EXPORT: 'exporting' } as const;

/** Spec 2 section 8, the session command toasts. */
export const commandSuccessText = (verb: CommandVerb) => `Successfully ${participle[verb]} session`;
export const commandFailureText = (verb: CommandVerb, detail: string) => `Error ${gerund[verb]} session: ${detail}`;

/** The bulk-delete modal's button and inline error. */
export const deleteCountText = (n: number) => `Delete ${n}`;
export const inlineErrorText = (message: string) => `Error: ${message}`;
