// Tests run against the built module (npm test runs `npm run build` first). A missing
// build fails loudly here rather than as an obscure file error inside a test.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadKernels, type Kernels, type KernelOptions } from '../loader.js';

export const builtWasmPath = fileURLToPath(new URL('../../dist/wasm/kernels.wasm', import.meta.url));
export const builtLoaderPath = fileURLToPath(new URL('../../dist/wasm/loader.js', import.meta.url));

export function loadBuiltKernels(options?: KernelOptions): Kernels {
  if (!existsSync(builtWasmPath)) {
    throw new Error(
      `${builtWasmPath} is missing: run "npm run build" (or "npm run build:wasm") before vitest; "npm test" does it`,
    );
  }
  return loadKernels(builtWasmPath, options);
}
