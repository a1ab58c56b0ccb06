// The slice of the WebAssembly JS API the loader uses. The server's tsconfig has no DOM lib
// (where TypeScript declares WebAssembly), so the global is typed here instead.

export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

export interface WasmGlobal {
  readonly value: unknown;
}

/** A compiled module: opaque, structured-cloneable to worker threads. */
export type WasmModule = object;

export interface WasmInstance {
  readonly exports: Record<string, unknown>;
}

interface WasmApi {
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: object) => WasmInstance;
  compile(bytes: Uint8Array): Promise<WasmModule>;
  instantiate(module: WasmModule, imports: object): Promise<WasmInstance>;
}

export const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
