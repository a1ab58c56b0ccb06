// Pure rules of the LiveShare link management screen (spec 1 "LiveShare link management",
// sections 4, 5 and 9): the shared-list text, the grid's sorting and filtering, the modal
// defaults and the delete confirmation. Unit-tested beside.
import type { LiveShareLink } from '../../../../server/contract/liveshare';

/** Actions column width (spec 1 section 9). */
export const LinksActionsWidth = 475;
export const AllLinksText = 'LiveShare Link Management (all existing links).';

export type SharedKind = 'Summary' | 'Agent';

/** SUM-{id} or AGT-{uniqueId} split into its kind and id; undefined for anything else. */
export function parseSharedRef(ref: string): { kind: SharedKind; id: string } | undefined {
  const m = /^(SUM|AGT)-(.+)$/i.exec(ref);
  if (!m) return undefined;
  return { kind: m[1].toUpperCase() === 'SUM' ? 'Summary' : 'Agent', id: m[2] };
}

/** Where the Shared list column links to, and its text ("Agent: (missing - id)" when gone). */
export function sharedListCell(ref: string, names: ReadonlyMap<string, string>): { text: string; href?: string } {
  const parsed = parseSharedRef(ref);
  if (!parsed) return { text: ref };
  const name = names.get(ref.toUpperCase().startsWith('SUM-') ? `SUM-${parsed.id}` : `AGT-${parsed.id}`);
  if (name === undefined) return { text: `${parsed.kind}: (missing - ${parsed.id})` };
  return { text: `${parsed.kind}: ${name}`, href: parsed.kind === 'Agent' ? `/agent/${parsed.id}` : `/summary/${parsed.id}` };
}

/** The filtered page's header: "LiveShare links for Summary|Agent: {target_name}". */
export function filteredHeader(ref: string, name: string): string {
  const kind = parseSharedRef(ref)?.kind ?? 'Summary';
  return `LiveShare links for ${kind}: ${name}`;
}

export const notValidSummaryText = (id: string) => `Summary ${id} not a valid summary`;

/** The create modal's name placeholder (and the name sent when left blank). */
export const defaultLinkName = (now: Date) => `Created ${now.toLocaleString()}`;

export function deleteConfirmation(link: LiveShareLink, targetName: string) {
  return {
    title: 'Permanently delete this LiveShare',
    message: `Are you sure you want to delete LiveShare '${link.Description}' url ${link.LiveShareURL} from ${targetName}?`,
    confirmLabel: 'Delete',
  };
}

/** A datetime-local input's value as ISO, or null for blank (never expires). */
export function expirationFromInput(value: string): string | null {
  if (!value.trim()) return null;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** An ISO time as a datetime-local input's value (local time), or '' for none. */
export function expirationToInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export const dateText = (iso: string | null, never = 'Never') => (iso ? new Date(iso).toLocaleString() : never);

export type LinkColumn = 'Description' | 'Creator' | 'Shared' | 'CreationDate' | 'ExpirationDate' | 'URL';

/** The text a column shows (and is sorted and filtered by, dates by time). */
export function columnValue(link: LiveShareLink, column: LinkColumn, names: ReadonlyMap<string, string>): string {
  switch (column) {
    case 'Description':
      return link.Description;
    case 'Creator':
      return link.CreatedByUser;
    case 'Shared':
      return sharedListCell(link.SummaryID, names).text;
    case 'CreationDate':
      return dateText(link.CreationDate);
    case 'ExpirationDate':
      return dateText(link.ExpirationDate);
    case 'URL':
      return link.LiveShareURL;
  }
}

const sortKey = (link: LiveShareLink, column: LinkColumn, names: ReadonlyMap<string, string>): string | number => {
  if (column === 'CreationDate') return Date.parse(link.CreationDate);
  if (column === 'ExpirationDate') return link.ExpirationDate ? Date.parse(link.ExpirationDate) : Number.POSITIVE_INFINITY;
  return columnValue(link, column, names).toLowerCase();
};

export interface GridView {
  sort?: { column: LinkColumn; descending: boolean };
  /** Per column: rows whose text contains this (case-insensitive). */
  filters: Partial<Record<LinkColumn, string>>;
}

export function visibleLinks(links: readonly LiveShareLink[], view: GridView, names: ReadonlyMap<string, string>): LiveShareLink[] {
  const filters = Object.entries(view.filters).filter(([, v]) => v && v.trim()) as [LinkColumn, string][];
  const out = links.filter((l) => filters.every(([c, f]) => columnValue(l, c, names).toLowerCase().includes(f.trim().toLowerCase())));
  const sort = view.sort;
  if (sort) {
    out.sort((a, b) => {
      const x = sortKey(a, sort.column, names);
      const y = sortKey(b, sort.column, names);
      const c = x < y ? -1 : x > y ? 1 : 0;
      return sort.descending ? -c : c;
    });
  }
  return out;
}
