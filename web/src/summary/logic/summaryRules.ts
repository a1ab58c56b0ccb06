// The summary screen's rules (spec 2 sections 4, 5 and 8): who may change which summary, the
// add menu, the rename dialog's button, the confirmation and result texts, the targets a
// row selection names.
import type { Summary } from '../../../../server/contract/summaries';
import type { TargetRow } from '../../../../server/contract/targets';
import type { Confirmation } from '../../components/ConfirmDialog';
import { isSelectableRow, sessionIdOf } from '../../target/logic/rowId';

/** Targets can be added or removed only if CanChangeTargets and not IsAllTargets. */
export const canChangeTargets = (s: Pick<Summary, 'CanChangeTargets' | 'IsAllTargets'> | null | undefined): boolean =>
  !!s && s.CanChangeTargets && !s.IsAllTargets;

/** The summaries a target can be added to from this screen: named ones that take targets, not the current one. */
export function addMenuSummaries(list: readonly Summary[], currentId: string | undefined): Summary[] {
  return list.filter((s) => s.UniqueID !== currentId && canChangeTargets(s));
}

/** Rename is disabled until the name differs from the old one (trimmed, and not empty). */
export function renameEnabled(oldName: string, newName: string): boolean {
  const next = newName.trim();
  return next !== '' && next !== oldName.trim();
}

/** Spec 2 section 5: deletion needs CanClose and this confirmation. */
export function deleteSummaryConfirmation(name: string): Confirmation {
  return { title: 'Delete summary', message: `Are you sure you want to delete ${name}?`, confirmLabel: 'Delete' };
}

export const SummaryRenamedMessage = 'Summary renamed';
export const summaryDeletedMessage = (name: string) => `Summary ${name} deleted.`;
/** Spec 2 section 8: a rename failure is shown in the dialog, a list failure in place. */
export const errorText = (message: string) => `Error: ${message}`;

/** The target (session) ids of the selected rows, once each, in selection order. */
export function selectedTargetIds(selection: readonly string[]): string[] {
  const ids: string[] = [];
  for (const rowId of selection) {
    if (!isSelectableRow(rowId)) continue;
    const id = sessionIdOf(rowId);
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** The selected rows of the grid, in grid order. */
export const selectedRows = (rows: readonly TargetRow[], selection: readonly string[]): TargetRow[] => rows.filter((r) => selection.includes(r.UniqueID));

/** Confirmation names for Reset And Restart / Close of a selection: the one target, or "{n} targets". */
export function selectionName(rows: readonly TargetRow[]): string | undefined {
  if (rows.length === 0) return undefined;
  if (rows.length === 1) return rows[0].DNSName && rows[0].DNSName !== rows[0].IP ? `${rows[0].DNSName} (${rows[0].IP})` : rows[0].IP || rows[0].DNSName;
  return `${rows.length} targets`;
}

/** The heading of the summary screen: the summary's name, or "Summary {id} not found". */
export function summaryHeadingText(a: { summaryId: string; summary: Summary | null; notFound: boolean }): string {
  if (a.notFound) return `Summary ${a.summaryId} not found`;
  return a.summary?.Name ?? 'Summary';
}
