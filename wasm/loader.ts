// Loads dist/wasm/kernels.wasm (built by `npm run build:wasm`). Compile once per process
// and hand the compiled WebAssembly.Module to worker threads (it is structured-cloneable, e.g. via
// Piscina workerData); each thread then instantiates its own Kernels (own memory).

import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { LatencyCode, SpecialLatencyBase } from '../engine/latency-codes.js';
import { CellFlag } from './kernel-types.js';
import type { KernelExports } from './kernel-exports.js';
import { Kernels, type KernelOptions } from './kernels.js';
import { wasmApi, type WasmGlobal, type WasmInstance, type WasmModule } from './wasm-api.js';

/** Beside the compiled loader: dist/wasm/kernels.wasm next to dist/wasm/loader.js. */
export const defaultKernelsWasmPath = fileURLToPath(new URL('./kernels.wasm', import.meta.url));

function wasmBytes(path: string): Buffer {
  if (!existsSync(path)) {
    throw new Error(`WASM kernels not found at ${path}: run "npm run build:wasm" first`);
  }
  return readFileSync(path);
}

export function compileKernels(path: string = defaultKernelsWasmPath): WasmModule {
  return new wasmApi.Module(wasmBytes(path));
}

export async function compileKernelsAsync(
  path: string = defaultKernelsWasmPath,
): Promise<WasmModule> {
  if (!existsSync(path)) wasmBytes(path); // same clear error
  return wasmApi.compile(await readFile(path));
}

/** Refuses a module whose codes or flags differ from engine/latency-codes.ts. */
function checkConstants(exports: KernelExports): void {
  const expected: Array<[string, number, WasmGlobal]> = [
    ['SPECIAL_LATENCY_BASE', SpecialLatencyBase, exports.SPECIAL_LATENCY_BASE],
    ['CODE_TIMEOUT', LatencyCode.Timeout, exports.CODE_TIMEOUT],
    ['CODE_NOT_PARTICIPATING', LatencyCode.NotParticipating, exports.CODE_NOT_PARTICIPATING],
    ['CODE_PENDING', LatencyCode.Pending, exports.CODE_PENDING],
    ['CODE_STOP_START', LatencyCode.StopStart, exports.CODE_STOP_START],
    ['CODE_IGNORE', LatencyCode.Ignore, exports.CODE_IGNORE],
    ['FLAG_HAS_NOT_PARTICIPATING', CellFlag.HasNotParticipating, exports.FLAG_HAS_NOT_PARTICIPATING],
    ['FLAG_IS_START_TRACE', CellFlag.IsStartTrace, exports.FLAG_IS_START_TRACE],
  ];
  for (const [name, want, global] of expected) {
    if (global?.value !== want) {
      throw new Error(`WASM kernels are stale: ${name} is ${global?.value}, expected ${want}; rebuild with "npm run build:wasm"`);
    }
  }
}

function wrap(instance: WasmInstance, options?: KernelOptions): Kernels {
  const exports = instance.exports as unknown as KernelExports;
  checkConstants(exports);
  return new Kernels(exports, options);
}

/** Synchronous load (fine in Node for any module size): a path, or a compiled module. */
export function loadKernels(
  source: string | WasmModule = defaultKernelsWasmPath,
  options?: KernelOptions,
): Kernels {
  const module = typeof source === 'string' ? compileKernels(source) : source;
  return wrap(new wasmApi.Instance(module, {}), options);
}

export async function loadKernelsAsync(
  source: string | WasmModule = defaultKernelsWasmPath,
  options?: KernelOptions,
): Promise<Kernels> {
  const module = typeof source === 'string' ? await compileKernelsAsync(source) : source;
  return wrap(await wasmApi.instantiate(module, {}), options);
}

export { Kernels, BucketAccumulator } from './kernels.js';
export type { KernelOptions } from './kernels.js';
export * from './kernel-types.js';
export type { WasmModule } from './wasm-api.js';
export { rollupRowsFromBuckets, type RollupRows } from './rollup-rows.js';
export { StatsKernels } from './stats.js';
export type * from './stats-types.js';
