// CSV text (RFC 4180) that spreadsheets open safely: fields quoted when needed, and a text
// that a spreadsheet would run as a formula (=, +, -, @ first; host names come from DNS and
// users) is prefixed with an apostrophe. Numbers are written as numbers.
const formula = /^[=+\-@\t\r]/;

function field(v: string | number | null | boolean): string {
  if (v === null) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const text = formula.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv<T extends Record<string, string | number | null | boolean>>(columns: (keyof T & string)[], rows: T[]): string {
  const lines = [columns.join(',')];
  for (const r of rows) lines.push(columns.map((c) => field(r[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
