// Just enough of Go's text/template syntax to check Helm templates without helm (there is no
// helm binary here): the actions, their block structure, the named templates they include
// and the .Values paths they read, and a rough YAML rendering with every action blanked out.

export interface Action {
  /** The action's text without delimiters, trim markers and surrounding space. */
  body: string;
  line: number;
}

export interface TemplateScan {
  actions: Action[];
  problems: string[];
  defines: string[];
  includes: string[];
  valuesPaths: string[][];
}

const blockOpeners = new Set(['if', 'range', 'with', 'define', 'block']);

export function scanTemplate(text: string): TemplateScan {
  const actions: Action[] = [];
  const problems: string[] = [];
  let i = 0;
  let outside = '';
  while (i < text.length) {
    const open = text.indexOf('{{', i);
    if (open < 0) {
      outside += text.slice(i);
      break;
    }
    outside += text.slice(i, open);
    const close = text.indexOf('}}', open + 2);
    const line = text.slice(0, open).split('\n').length;
    if (close < 0) {
      problems.push(`line ${line}: "{{" without "}}"`);
      break;
    }
    let body = text.slice(open + 2, close);
    if (body.includes('{{')) problems.push(`line ${line}: "{{" inside an action`);
    body = body.replace(/^-\s/, '').replace(/\s-$/, '').trim();
    if (!(body.startsWith('/*') && body.endsWith('*/'))) actions.push({ body, line });
    i = close + 2;
  }
  if (outside.includes('}}')) problems.push('"}}" outside an action');

  const stack: Action[] = [];
  const defines: string[] = [];
  const includes: string[] = [];
  const valuesPaths: string[][] = [];
  for (const a of actions) {
    const word = /^([a-z]+)\b/.exec(a.body)?.[1] ?? '';
    if (blockOpeners.has(word)) stack.push(a);
    else if (word === 'end') {
      if (!stack.pop()) problems.push(`line ${a.line}: "end" without an open block`);
    } else if (word === 'else') {
      const top = stack.at(-1);
      if (!top || !/^(if|range|with)\b/.test(top.body)) problems.push(`line ${a.line}: "else" outside if/range/with`);
    }
    if (word === 'define') {
      const name = /^define\s+"([^"]+)"/.exec(a.body)?.[1];
      if (name) defines.push(name);
      else problems.push(`line ${a.line}: define without a quoted name`);
    }
    for (const m of a.body.matchAll(/\b(?:include|template)\s+"([^"]+)"/g)) includes.push(m[1]);
    for (const m of a.body.matchAll(/\$?\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g)) valuesPaths.push(m[1].slice(1).split('.'));
    if ((a.body.match(/\(/g) ?? []).length !== (a.body.match(/\)/g) ?? []).length) {
      problems.push(`line ${a.line}: unbalanced parentheses in {{ ${a.body} }}`);
    }
    if ((a.body.match(/"/g) ?? []).length % 2 !== 0) problems.push(`line ${a.line}: unbalanced quotes in {{ ${a.body} }}`);
  }
  for (const a of stack) problems.push(`line ${a.line}: "${a.body}" never ended`);
  return { actions, problems, defines, includes, valuesPaths };
}

/**
 * The template with lines that hold only actions removed and inline actions replaced by a
 * placeholder scalar: both branches of every `if` stay, so parse the result without the
 * unique-keys check. Good enough to see the YAML skeleton and its fixed values.
 */
export function roughRender(text: string, placeholder = 'RENDERED'): string {
  const withoutComments = text.replace(/\{\{-?\s*\/\*[\s\S]*?\*\/\s*-?\}\}/g, '');
  return withoutComments
    .split('\n')
    .filter((line) => line.replace(/\{\{[\s\S]*?\}\}/g, '').trim() !== '' || line.trim() === '')
    .map((line) => line.replace(/\{\{[\s\S]*?\}\}/g, placeholder))
    .join('\n');
}

/** Whether a dotted path resolves in the values tree (stopping at a map the user fills). */
export function hasValuesPath(values: unknown, path: string[]): boolean {
  let node: unknown = values;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return false;
    if (!(key in (node as Record<string, unknown>))) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}
