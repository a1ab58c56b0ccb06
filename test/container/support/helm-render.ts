// `helm template` for this chart without helm (no helm binary here): Go's text/template
// (actions, trim markers, comments, if/else if/else, range, with, define, variables, pipelines)
// with the Sprig and Helm functions the chart's templates call, and Helm's value merging, so
// that the chart test checks the manifests a real install would get, mode by mode. A function
// the chart starts to use that is not here stops the render with its name (add it here).
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';

type Value = unknown;
type Scope = { vars: Map<string, Value>; parent?: Scope };

interface Text { kind: 'text'; text: string }
interface Action { kind: 'action'; pipe: Pipe }
interface If { kind: 'if'; branches: { pipe: Pipe; body: Node[] }[]; otherwise?: Node[] }
interface With { kind: 'with'; pipe: Pipe; body: Node[]; otherwise?: Node[] }
interface Range { kind: 'range'; pipe: Pipe; body: Node[]; otherwise?: Node[] }
interface Define { kind: 'define'; name: string; body: Node[] }
type Node = Text | Action | If | With | Range | Define;

interface Pipe { decl?: { names: string[]; assign: boolean }; cmds: Token[][] }
type Token =
  | { t: 'str'; v: string }
  | { t: 'num'; v: number }
  | { t: 'bool'; v: boolean }
  | { t: 'nil' }
  | { t: 'field'; base: 'dot' | string; path: string[] }
  | { t: 'fn'; name: string }
  | { t: 'sub'; pipe: Pipe };

/** Splits a template into text and action pieces, applying the trim markers and dropping comments. */
function lex(src: string, file: string): { text?: string; action?: string; line: number }[] {
  const out: { text?: string; action?: string; line: number }[] = [];
  let i = 0;
  let trimNext = false;
  while (i < src.length) {
    const open = src.indexOf('{{', i);
    let text = src.slice(i, open < 0 ? src.length : open);
    if (trimNext) text = text.replace(/^\s+/, '');
    trimNext = false;
    if (open < 0) {
      out.push({ text, line: 0 });
      break;
    }
    const close = src.indexOf('}}', open);
    const line = src.slice(0, open).split('\n').length;
    if (close < 0) throw new Error(`${file}:${line}: "{{" without "}}"`);
    let body = src.slice(open + 2, close);
    if (body.startsWith('- ') || body.startsWith('-\n')) {
      text = text.replace(/\s+$/, '');
      body = body.slice(1);
    }
    if (body.endsWith(' -') || body.endsWith('\n-')) {
      trimNext = true;
      body = body.slice(0, -1);
    }
    out.push({ text, line });
    body = body.trim();
    if (!(body.startsWith('/*') && body.endsWith('*/'))) out.push({ action: body, line });
    i = close + 2;
  }
  return out;
}

function tokenize(s: string, where: string): Token[][] {
  const cmds: Token[][] = [[]];
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (/\s/.test(c)) { i++; continue; }
    if (c === '|') { cmds.push([]); i++; continue; }
    const cmd = cmds[cmds.length - 1];
    if (c === '"') {
      let j = i + 1;
      while (j < s.length && s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
      cmd.push({ t: 'str', v: JSON.parse(s.slice(i, j + 1)) as string });
      i = j + 1;
    } else if (c === '`') {
      const j = s.indexOf('`', i + 1);
      cmd.push({ t: 'str', v: s.slice(i + 1, j) });
      i = j + 1;
    } else if (c === '(') {
      let depth = 0;
      let j = i;
      let inStr = false;
      for (; j < s.length; j++) {
        if (s[j] === '"' && s[j - 1] !== '\\') inStr = !inStr;
        if (inStr) continue;
        if (s[j] === '(') depth++;
        if (s[j] === ')' && --depth === 0) break;
      }
      cmd.push({ t: 'sub', pipe: parsePipe(s.slice(i + 1, j), where) });
      i = j + 1;
    } else {
      const m = /^[^\s|()]+/.exec(s.slice(i))![0];
      i += m.length;
      if (/^-?\d+(\.\d+)?$/.test(m)) cmd.push({ t: 'num', v: Number(m) });
      else if (m === 'true' || m === 'false') cmd.push({ t: 'bool', v: m === 'true' });
      else if (m === 'nil') cmd.push({ t: 'nil' });
      else if (m === '.') cmd.push({ t: 'field', base: 'dot', path: [] });
      else if (m.startsWith('.')) cmd.push({ t: 'field', base: 'dot', path: m.slice(1).split('.') });
      else if (m.startsWith('$')) {
        const [name, ...path] = m.split('.');
        cmd.push({ t: 'field', base: name, path });
      } else if (/^[A-Za-z_]\w*$/.test(m)) cmd.push({ t: 'fn', name: m });
      else throw new Error(`${where}: cannot read "${m}"`);
    }
  }
  return cmds;
}

function parsePipe(s: string, where: string): Pipe {
  const decl = /^\s*(\$\w*(?:\s*,\s*\$\w*)?)\s*(:?=)\s*/.exec(s);
  if (decl) {
    return {
      decl: { names: decl[1].split(',').map((n) => n.trim()), assign: decl[2] === '=' },
      cmds: tokenize(s.slice(decl[0].length), where),
    };
  }
  return { cmds: tokenize(s, where) };
}

/** The action pieces as a tree (define blocks included where they stand). */
function parseTemplate(src: string, file: string): Node[] {
  const pieces = lex(src, file);
  let k = 0;
  const block = (stopAt: Set<string>): { nodes: Node[]; stop: string; rest: string } => {
    const nodes: Node[] = [];
    while (k < pieces.length) {
      const p = pieces[k++];
      if (p.text !== undefined) {
        if (p.text) nodes.push({ kind: 'text', text: p.text });
        continue;
      }
      const a = p.action!;
      const where = `${file}:${p.line}`;
      const word = /^(\w+)\b/.exec(a)?.[1] ?? '';
      const rest = a.slice(word.length).trim();
      if (stopAt.has(word)) return { nodes, stop: word, rest };
      if (word === 'if' || word === 'with' || word === 'range') {
        const first = block(new Set(['else', 'end']));
        let stop = first.stop;
        let elseRest = first.rest;
        if (word === 'if') {
          const node: If = { kind: 'if', branches: [{ pipe: parsePipe(rest, where), body: first.nodes }] };
          while (stop === 'else') {
            const isElseIf = elseRest.startsWith('if ');
            const next = block(new Set(['else', 'end']));
            if (isElseIf) node.branches.push({ pipe: parsePipe(elseRest.slice(3), where), body: next.nodes });
            else node.otherwise = next.nodes;
            stop = next.stop;
            elseRest = next.rest;
          }
          nodes.push(node);
        } else {
          let otherwise: Node[] | undefined;
          if (stop === 'else') otherwise = block(new Set(['end'])).nodes;
          nodes.push({ kind: word, pipe: parsePipe(rest, where), body: first.nodes, otherwise } as With | Range);
        }
      } else if (word === 'define') {
        const name = JSON.parse(rest) as string;
        nodes.push({ kind: 'define', name, body: block(new Set(['end'])).nodes });
      } else if (word === 'else' || word === 'end') {
        throw new Error(`${where}: "${word}" outside a block`);
      } else {
        nodes.push({ kind: 'action', pipe: parsePipe(a, where) });
      }
    }
    if (stopAt.size > 0) throw new Error(`${file}: a block never ended`);
    return { nodes, stop: '', rest: '' };
  };
  return block(new Set()).nodes;
}

/** Go's truth: false, 0, nil, and empty strings, lists and maps are false. */
export function truthy(v: Value): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v as object).length > 0;
  return true;
}

function str(v: Value): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

function goQuote(v: Value): string {
  return JSON.stringify(str(v));
}

function indent(n: number, s: string): string {
  const pad = ' '.repeat(n);
  return pad + s.replaceAll('\n', `\n${pad}`);
}

function printf(format: string, args: Value[]): string {
  let k = 0;
  return format.replace(/%([sdvq%])/g, (_m, c: string) => (c === '%' ? '%' : c === 'q' ? goQuote(args[k++]) : str(args[k++])));
}

export class ChartRenderer {
  private readonly defines = new Map<string, Node[]>();
  private readonly files = new Map<string, Node[]>();

  constructor(templatesDir: string) {
    for (const f of readdirSync(templatesDir).sort()) {
      const tree = parseTemplate(readFileSync(join(templatesDir, f), 'utf8'), f);
      this.files.set(f, tree);
      this.collectDefines(tree);
    }
  }

  private collectDefines(nodes: Node[]): void {
    for (const n of nodes) if (n.kind === 'define') this.defines.set(n.name, n.body);
  }

  /** The rendered text of one template file, as `helm template --show-only` prints it (no header). */
  renderFile(file: string, root: Record<string, Value>): string {
    const tree = this.files.get(file);
    if (!tree) throw new Error(`no template ${file}`);
    return this.exec(tree, root, { vars: new Map([['$', root]]) }).replaceAll('<no value>', '');
  }

  private exec(nodes: Node[], dot: Value, scope: Scope): string {
    let out = '';
    for (const n of nodes) {
      switch (n.kind) {
        case 'text':
          out += n.text;
          break;
        case 'define':
          break;
        case 'action': {
          const v = this.pipe(n.pipe, dot, scope);
          if (!n.pipe.decl) out += v === undefined || v === null ? '<no value>' : str(v);
          break;
        }
        case 'if': {
          const inner: Scope = { vars: new Map(), parent: scope };
          const hit = n.branches.find((b) => truthy(this.pipe(b.pipe, dot, inner)));
          if (hit) out += this.exec(hit.body, dot, inner);
          else if (n.otherwise) out += this.exec(n.otherwise, dot, inner);
          break;
        }
        case 'with': {
          const inner: Scope = { vars: new Map(), parent: scope };
          const v = this.pipe(n.pipe, dot, inner);
          if (truthy(v)) out += this.exec(n.body, v, inner);
          else if (n.otherwise) out += this.exec(n.otherwise, dot, inner);
          break;
        }
        case 'range': {
          const inner: Scope = { vars: new Map(), parent: scope };
          const names = n.pipe.decl?.names ?? [];
          const v = this.pipe({ cmds: n.pipe.cmds }, dot, inner);
          const entries: [Value, Value][] = Array.isArray(v)
            ? v.map((x, i) => [i, x])
            : v && typeof v === 'object'
              ? Object.keys(v).sort().map((k) => [k, (v as Record<string, Value>)[k]])
              : [];
          if (entries.length === 0 && n.otherwise) out += this.exec(n.otherwise, dot, inner);
          for (const [key, item] of entries) {
            if (names.length === 1) inner.vars.set(names[0], item);
            if (names.length === 2) {
              inner.vars.set(names[0], key);
              inner.vars.set(names[1], item);
            }
            out += this.exec(n.body, item, inner);
          }
          break;
        }
      }
    }
    return out;
  }

  private lookupVar(scope: Scope, name: string): Scope | undefined {
    for (let s: Scope | undefined = scope; s; s = s.parent) if (s.vars.has(name)) return s;
    return undefined;
  }

  private pipe(p: Pipe, dot: Value, scope: Scope): Value {
    let v: Value = undefined;
    p.cmds.forEach((cmd, i) => {
      v = this.command(cmd, dot, scope, i === 0 ? [] : [v]);
    });
    if (p.decl) {
      const [name] = p.decl.names;
      if (p.decl.assign) {
        const owner = this.lookupVar(scope, name);
        if (!owner) throw new Error(`undefined variable ${name}`);
        owner.vars.set(name, v);
      } else scope.vars.set(name, v);
    }
    return v;
  }

  private operand(t: Token, dot: Value, scope: Scope): Value {
    switch (t.t) {
      case 'str':
      case 'num':
      case 'bool':
        return t.v;
      case 'nil':
        return null;
      case 'sub':
        return this.pipe(t.pipe, dot, scope);
      case 'field': {
        let base: Value;
        if (t.base === 'dot') base = dot;
        else {
          const owner = this.lookupVar(scope, t.base);
          if (!owner) throw new Error(`undefined variable ${t.base}`);
          base = owner.vars.get(t.base);
        }
        for (const key of t.path) {
          if (base === null || base === undefined || typeof base !== 'object') throw new Error(`nil pointer evaluating .${t.path.join('.')} (at ${key})`);
          base = (base as Record<string, Value>)[key];
        }
        return base;
      }
      case 'fn':
        return this.call(t.name, [], dot, scope);
    }
  }

  private command(cmd: Token[], dot: Value, scope: Scope, piped: Value[]): Value {
    const [head, ...rest] = cmd;
    if (head.t === 'fn') return this.call(head.name, [...rest.map((t) => this.operand(t, dot, scope)), ...piped], dot, scope);
    if (rest.length > 0 || piped.length > 0) throw new Error(`cannot call a non-function (${JSON.stringify(head)})`);
    return this.operand(head, dot, scope);
  }

  private call(name: string, a: Value[], _dot: Value, _scope: Scope): Value {
    const s = (i: number) => str(a[i]);
    switch (name) {
      case 'include': {
        const body = this.defines.get(s(0));
        if (!body) throw new Error(`include of an undefined template "${s(0)}"`);
        return this.exec(body, a[1], { vars: new Map([['$', a[1]]]) });
      }
      case 'toYaml': {
        if (a[0] === null || a[0] === undefined) return 'null';
        return stringify(a[0], { lineWidth: 0, sortMapEntries: true }).replace(/\n$/, '');
      }
      case 'nindent': return `\n${indent(Number(a[0]), s(1))}`;
      case 'indent': return indent(Number(a[0]), s(1));
      case 'quote': return a.filter((x) => x !== null && x !== undefined).map(goQuote).join(' ');
      case 'squote': return a.map((x) => `'${str(x)}'`).join(' ');
      case 'default': return truthy(a[1]) ? a[1] : a[0];
      case 'empty': return !truthy(a[0]);
      case 'required':
        if (a[1] === null || a[1] === undefined || a[1] === '') throw new Error(`required: ${s(0)}`);
        return a[1];
      case 'fail': throw new Error(`fail: ${s(0)}`);
      case 'trunc': { const n = Number(a[0]); const v = s(1); return n >= 0 ? v.slice(0, n) : v.slice(n); }
      case 'trimSuffix': return s(1).endsWith(s(0)) ? s(1).slice(0, s(1).length - s(0).length) : s(1);
      case 'printf': return printf(s(0), a.slice(1));
      case 'print': return a.map(str).join('');
      case 'replace': return s(2).replaceAll(s(0), s(1));
      case 'contains': return s(1).includes(s(0));
      case 'hasKey': return a[0] !== null && typeof a[0] === 'object' && s(1) in (a[0] as object);
      case 'eq': return a.slice(1).some((x) => x === a[0]);
      case 'ne': return a[0] !== a[1];
      case 'gt': return Number(a[0]) > Number(a[1]);
      case 'ge': return Number(a[0]) >= Number(a[1]);
      case 'lt': return Number(a[0]) < Number(a[1]);
      case 'and': return a.find((x) => !truthy(x)) ?? a[a.length - 1];
      case 'or': return a.find((x) => truthy(x)) ?? a[a.length - 1];
      case 'not': return !truthy(a[0]);
      case 'index': return a.slice(1).reduce((m: Value, k) => (m === null || m === undefined ? undefined : (m as Record<string, Value>)[str(k)]), a[0]);
      case 'len': return Array.isArray(a[0]) || typeof a[0] === 'string' ? (a[0] as string).length : Object.keys(a[0] ?? {}).length;
      case 'int': return Math.trunc(Number(a[0]));
      case 'toString': return s(0);
      case 'b64enc': return Buffer.from(s(0), 'utf8').toString('base64');
      case 'b64dec': return Buffer.from(s(0), 'base64').toString('utf8');
      case 'randAlphaNum': {
        const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
        return [...randomBytes(Number(a[0]))].map((b) => chars[b % chars.length]).join('');
      }
      case 'list': return [...a];
      case 'dict': {
        const d: Record<string, Value> = {};
        for (let i = 0; i + 1 < a.length; i += 2) d[s(i)] = a[i + 1];
        return d;
      }
      case 'randBytes': return randomBytes(Number(a[0])).toString('base64');
      // `helm template` has no cluster to look in: an empty map, as helm gives.
      case 'lookup': return {};
      default: throw new Error(`the chart renderer has no function "${name}" (test/container/support/helm-render.ts)`);
    }
  }
}

/** Helm's value merge: maps merge key by key, anything else replaces, null removes the key. */
export function mergeValues(base: Record<string, Value>, over: Record<string, Value>): Record<string, Value> {
  const out: Record<string, Value> = structuredClone(base);
  for (const [k, v] of Object.entries(over)) {
    if (v === null) delete out[k];
    else if (v && typeof v === 'object' && !Array.isArray(v) && out[k] && typeof out[k] === 'object' && !Array.isArray(out[k])) {
      out[k] = mergeValues(out[k] as Record<string, Value>, v as Record<string, Value>);
    } else out[k] = structuredClone(v);
  }
  return out;
}

export interface RenderedChart {
  /** Every manifest of every template, as `helm template` would apply them. */
  manifests: Record<string, any>[];
  /** One kind and name: the manifest, or undefined. */
  find(kind: string, name?: string): Record<string, any> | undefined;
  notes: string;
}

/**
 * `helm template RELEASE CHART --namespace NS -f overrides`: values.yaml merged with the
 * overrides, every template rendered, split into documents and parsed; NOTES.txt rendered too.
 */
export function renderChart(chartDir: string, overrides: Record<string, Value> = {}, release = { Name: 'hw', Namespace: 'monitoring' }): RenderedChart {
  const chart = parse(readFileSync(join(chartDir, 'Chart.yaml'), 'utf8')) as Record<string, string>;
  const values = mergeValues(parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8')) as Record<string, Value>, overrides);
  const root = {
    Values: values,
    Release: { ...release, Service: 'Helm', IsInstall: true, IsUpgrade: false, Revision: 1 },
    Chart: { Name: chart.name, Version: chart.version, AppVersion: chart.appVersion },
  };
  const renderer = new ChartRenderer(join(chartDir, 'templates'));
  const manifests: Record<string, any>[] = [];
  let notes = '';
  for (const f of readdirSync(join(chartDir, 'templates')).sort()) {
    if (f.startsWith('_')) continue;
    const text = renderer.renderFile(f, root);
    if (f === 'NOTES.txt') {
      notes = text;
      continue;
    }
    for (const doc of text.split(/^---\s*$/m)) {
      const obj = parse(doc) as Record<string, any> | null;
      if (obj) manifests.push(obj);
    }
  }
  return {
    manifests,
    notes,
    find: (kind, name) => manifests.find((m) => m.kind === kind && (name === undefined || m.metadata?.name === name)),
  };
}
