// A tagged template for the alerts pages: every interpolated value is HTML-escaped unless it
// is markup this module made (Markup). So no user text (alert names, URLs, answers) can become
// markup or script, whatever it holds.
import { escapeHtml } from './templates.js';

export class Markup {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Value = string | number | boolean | null | undefined | Markup | Value[];

function render(v: Value): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof Markup) return v.text;
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Markup {
  let out = strings[0];
  values.forEach((v, i) => (out += render(v) + strings[i + 1]));
  return new Markup(out);
}

/** A JSON value for a data- attribute (escaped like any value). */
export const json = (v: unknown) => JSON.stringify(v);
