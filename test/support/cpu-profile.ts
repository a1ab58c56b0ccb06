// Summarises a Chromium CPU profile (CDP Profiler.stop) for the browser perf suites: the
// built console's frames mapped back to their sources through dist/web's source maps, then
// self time per source file, time spent under each source file (inclusive: a frame of the
// file anywhere on the stack) and the functions with the most self time. Prints diagnostics
// only; nothing here is asserted.
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js';

export interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface ProfileSummary {
  wallMs: number;
  /** Milliseconds per category: (idle), (program), (garbage collector), script. */
  kinds: [string, number][];
  selfByFile: [string, number][];
  underFile: [string, number][];
  topFunctions: [string, number][];
}

const shorten = (source: string) =>
  source
    .replace(/^.*?node_modules\//, 'npm:')
    .replace(/^.*?\/web\/src\//, 'web/src/')
    .replace(/^.*?\/server\/contract\//, 'server/contract/');

/** `assetsDir`: the built console's assets (dist/web/assets), whose .map files name the sources. */
export function summariseProfile(profile: CpuProfile, assetsDir: string, top = 15): ProfileSummary {
  const maps = new Map<string, SourceMapConsumer | null>();
  const consumer = (url: string) => {
    if (!maps.has(url)) {
      const file = join(assetsDir, `${basename(new URL(url).pathname)}.map`);
      maps.set(url, existsSync(file) ? new SourceMapConsumer(JSON.parse(readFileSync(file, 'utf8')) as RawSourceMap) : null);
    }
    return maps.get(url) ?? null;
  };
  const where = new Map<number, { file: string; fn: string }>();
  for (const n of profile.nodes) {
    const { functionName, url, lineNumber, columnNumber } = n.callFrame;
    if (!url) {
      where.set(n.id, { file: functionName.startsWith('(') ? functionName : '(native)', fn: functionName || '(anonymous)' });
      continue;
    }
    const c = /^https?:/.test(url) ? consumer(url) : null;
    const pos = c?.originalPositionFor({ line: lineNumber + 1, column: columnNumber });
    const file = pos?.source ? shorten(pos.source) : url.replace(/^https?:\/\/[^/]+/, '');
    const fn = `${pos?.name ?? (functionName || '(anonymous)')} ${file}:${pos?.line ?? lineNumber + 1}`;
    where.set(n.id, { file, fn });
  }
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfMs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  // A sample's time is the gap to the next sample.
  for (let i = 0; i < samples.length; i++) {
    const ms = (deltas[i + 1] ?? 0) / 1000;
    selfMs.set(samples[i], (selfMs.get(samples[i]) ?? 0) + ms);
  }
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  const kinds = new Map<string, number>();
  const selfByFile = new Map<string, number>();
  const underFile = new Map<string, number>();
  const fns = new Map<string, number>();
  for (const [id, ms] of selfMs) {
    const w = where.get(id)!;
    const kind = ['(idle)', '(program)', '(garbage collector)'].includes(w.file) ? w.file : 'script';
    add(kinds, kind, ms);
    if (kind !== 'script') continue;
    add(selfByFile, w.file, ms);
    add(fns, w.fn, ms);
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const f = where.get(n)!.file;
      if (!seen.has(f)) (seen.add(f), add(underFile, f, ms));
    }
  }
  const sorted = (m: Map<string, number>, k = top) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k);
  return {
    wallMs: (profile.endTime - profile.startTime) / 1000,
    kinds: sorted(kinds),
    selfByFile: sorted(selfByFile),
    underFile: sorted(new Map([...underFile].filter(([f]) => f !== '(root)' && f !== '(native)'))),
    topFunctions: sorted(fns),
  };
}

/** The summary as printable lines. */
export function profileLines(s: ProfileSummary): string[] {
  const pct = (ms: number) => `${ms.toFixed(0)} ms (${((ms / s.wallMs) * 100).toFixed(1)}%)`;
  const list = (xs: [string, number][]) => xs.map(([k, v]) => `    ${pct(v).padEnd(18)} ${k}`);
  return [
    `  CPU profile over ${(s.wallMs / 1000).toFixed(1)} s: ${s.kinds.map(([k, v]) => `${k} ${pct(v)}`).join(', ')}`,
    '  self time by source file:',
    ...list(s.selfByFile),
    '  time under each source file (its frames anywhere on the stack):',
    ...list(s.underFile),
    '  functions by self time:',
    ...list(s.topFunctions),
  ];
}
