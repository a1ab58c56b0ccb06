// The WASM kernels (AssemblyScript) cannot import the declaration, and they take the columns
// of rollup rows by position: accumulateRollups one pointer per column, finalizeBuckets one
// output per statistic. These checks fail when the declaration (columns.ts) and the kernel's
// layout disagree, naming the list that differs.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyRollupRows as kernelRows } from '../../wasm/rollup-rows.js';
import { RollupRowColumns } from './columns.js';

const root = resolve(import.meta.dirname, '../..');
const source = (path: string) => readFileSync(resolve(root, path), 'utf8');

const keys = RollupRowColumns.map((c) => c.key as string);
const statistics = RollupRowColumns.filter((c) => !('place' in c)).map((c) => c.key as string);

/** The parameter names of an exported AssemblyScript function. */
function parameters(path: string, fn: string): string[] {
  const m = source(path).match(new RegExp(`export function ${fn}\\(([^)]*)\\)`));
  if (!m) throw new Error(`${fn} not found in ${path}`);
  return m[1].split(',').map((p) => p.trim().split(':')[0].trim()).filter(Boolean);
}

/** The `obj.name` arguments of the call to `fn` in a TypeScript file, in order. */
function callArguments(path: string, fn: string, obj: string): string[] {
  const m = source(path).match(new RegExp(`\\.${fn}\\(([^;]*?)\\);`));
  if (!m) throw new Error(`call of ${fn} not found in ${path}`);
  return [...m[1].matchAll(new RegExp(`\\b${obj}\\.(\\w+)`, 'g'))].map((a) => a[1]);
}

describe('the rollup declaration and the kernels', () => {
  it("declares the kernel's row columns, floats as Float64Array and integers as Int32Array", () => {
    const rows = kernelRows(1) as unknown as Record<string, Float64Array | Int32Array>;
    expect(Object.keys(rows)).toEqual(keys);
    expect(RollupRowColumns.map((c) => rows[c.key] instanceof (c.type === 'DOUBLE' ? Float64Array : Int32Array))).toEqual(keys.map(() => true));
  });

  it('orders the columns as accumulateRollups takes their pointers, and as the loader passes them', () => {
    const pointers = parameters('wasm/assembly/accumulate.ts', 'accumulateRollups').filter((p) => p.endsWith('Ptr') && p !== 'cellsPtr');
    expect(pointers.map((p) => p.replace(/Ptr$/, ''))).toEqual(keys);
    expect(callArguments('wasm/kernels.ts', 'accumulateRollups', 'ptr')).toEqual(keys);
  });

  it('orders the statistics as finalizeBuckets writes them, and as the loader reads them', () => {
    const outputs = parameters('wasm/assembly/finalize.ts', 'finalizeBuckets').filter((p) => p.endsWith('Out')).map((p) => p.replace(/Out$/, ''));
    expect(outputs.slice(0, statistics.length)).toEqual(statistics);
    expect(callArguments('wasm/kernels.ts', 'finalizeBuckets', 'p').slice(0, statistics.length)).toEqual(statistics);
  });

  it("keeps every statistic in the kernel's scratch cell", () => {
    const cell = source('wasm/assembly/cell.ts').match(/class Cell \{([\s\S]*?)\n\}/)![1];
    const fields = [...cell.matchAll(/^\s*(\w+): (?:f64|i32);/gm)].map((f) => f[1]);
    expect([...fields].sort()).toEqual([...statistics].sort());
  });
});
