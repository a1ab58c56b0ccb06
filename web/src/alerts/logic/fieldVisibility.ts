// The alert form (server/alerts/form-page.ts) marks each field group that belongs to some
// condition or action kinds only: data-when-field (the switch: Kind or ActionKind) and
// data-when-values (its values, space-separated). A group is shown while its switch has one
// of them; hidden ones are disabled too, so they are not sent.
import type { Confirmation } from '../../components/ConfirmDialog';

export interface WhenRule {
  field: string;
  values: string;
}

/** Whether a group is shown, given the form's current values by field name. */
export function isShown(rule: WhenRule, current: Readonly<Record<string, string>>): boolean {
  const value = current[rule.field];
  if (value === undefined) return true;
  return rule.values.split(/\s+/).includes(value);
}

/** The confirmation a page's button asks for (data-confirm, data-confirm-title, data-confirm-label), if any. */
export function confirmationOf(data: { confirm?: string; confirmTitle?: string; confirmLabel?: string }): Confirmation | undefined {
  if (!data.confirm) return undefined;
  return { title: data.confirmTitle || 'Confirm', message: data.confirm, confirmLabel: data.confirmLabel || 'OK' };
}
