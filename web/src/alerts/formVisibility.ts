// Shows the alert form's field groups of the chosen condition and action, hides (and disables,
// so they are not sent) the others, when a switch (Kind, ActionKind) changes. The rule is
// logic/fieldVisibility.ts; the server renders the first state the same way.
import { isShown } from './logic/fieldVisibility';

export function applyFieldVisibility(form: HTMLFormElement): void {
  const current: Record<string, string> = {};
  for (const s of form.querySelectorAll<HTMLSelectElement>('select[data-switch]')) current[s.name] = s.value;
  for (const group of form.querySelectorAll<HTMLElement>('[data-when-field]')) {
    const shown = isShown({ field: group.dataset.whenField ?? '', values: group.dataset.whenValues ?? '' }, current);
    group.hidden = !shown;
    for (const c of group.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('input, select, textarea')) c.disabled = !shown;
  }
}
