// The main thread's own WASM kernel instance, for queries (ingest has its worker's).
import { loadKernels, type Kernels } from '../../wasm/loader.js';

let instance: Kernels | undefined;
export const queryKernels = (): Kernels => (instance ??= loadKernels());
