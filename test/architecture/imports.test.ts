// The layering of ARCHITECTURE.md, checked on every import of every source file: engine/
// knows nothing outside itself; web/ uses no server code but server/contract/; server/ and
// agent/ reach the engine only through its public entry points; the read path (server/data/)
// and the write path (server/ingest/) share the rollup format through its owner,
// server/rollups/, never each other's internals. A new import that crosses a line fails
// here, naming the file and the import.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/**
 * The engine's public entry points: its API, and the latency codes, a pure module of
 * constants that the console shows too (server/contract/latency.ts re-exports it for web/,
 * and the ingest workers read it without loading the prober).
 */
const EngineEntryPoints = ['engine/index.ts', 'engine/latency-codes.ts'];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|tsx)$/.test(e.name) && !/\.d\.ts$/.test(e.name) ? [path] : [];
  });
}

/** Relative module specifiers of a file's static imports, re-exports and dynamic imports. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const found = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]/g), ...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)];
  return found.map((m) => m[1]).filter((s) => s.startsWith('.'));
}

/** The repository path an import names, with .js read as its .ts/.tsx source. */
function target(file: string, specifier: string): string {
  return relative(root, resolve(root, dirname(file), specifier)).replace(/\.js$/, '.ts');
}

function crossings(dirs: string[], allowed: (to: string, from: string) => boolean): string[] {
  return dirs.flatMap((d) =>
    sourceFiles(d)
      .filter((f) => !/\.test\.tsx?$/.test(f))
      .flatMap((f) => importsOf(f).map((s) => [f, s, target(f, s)] as const))
      .filter(([f, , to]) => !allowed(to, f))
      .map(([f, s]) => `${f} imports ${s}`),
  );
}

const under = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`);

describe('layering', () => {
  it('finds the imports it checks', () => {
    expect(importsOf('server/targets/trace-runner.ts').length).toBeGreaterThan(3);
    expect(sourceFiles('web/src').length).toBeGreaterThan(20);
  });

  it('engine/ imports nothing outside engine/', () => {
    expect(crossings(['engine'], (to) => under(to, 'engine'))).toEqual([]);
  });

  it('web/ imports no server code but server/contract/', () => {
    expect(crossings(['web/src'], (to) => !under(to, 'server') || under(to, 'server/contract'))).toEqual([]);
  });

  it('server/ and agent/ reach the engine only through its entry points', () => {
    const ok = (to: string) => !under(to, 'engine') || EngineEntryPoints.some((e) => to === e || to === e.replace(/\.ts$/, '.tsx'));
    expect(crossings(['server', 'agent'], ok)).toEqual([]);
  });

  // The rollup format has one owner (server/rollups/, docs/store.md): when the read path
  // imported the write path's internals, one new statistic touched files on both sides.
  // Tests may still drive one side with the other (ingest's suites check answers of data/).
  it('server/data/ and server/ingest/ import nothing from each other', () => {
    expect(crossings(['server/data'], (to) => !under(to, 'server/ingest'))).toEqual([]);
    expect(crossings(['server/ingest'], (to) => !under(to, 'server/data'))).toEqual([]);
  });

  it('server/rollups/ imports neither of its users', () => {
    expect(crossings(['server/rollups'], (to) => !under(to, 'server/ingest') && !under(to, 'server/data'))).toEqual([]);
  });
});
