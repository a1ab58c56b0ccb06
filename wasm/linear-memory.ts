// The kernel module's linear memory as seen from JavaScript: grows on demand (never
// shrinks, so buffers are reused call after call) and keeps typed views over it, rebuilt
// only when a grow has detached the old ArrayBuffer.

import type { WasmMemory } from './wasm-api.js';

const PAGE_BYTES = 65536;

export class LinearMemory {
  readonly #memory: WasmMemory;
  #buffer: ArrayBuffer | undefined;
  #f64 = new Float64Array(0);
  #i32 = new Int32Array(0);
  #u32 = new Uint32Array(0);

  constructor(memory: WasmMemory) {
    this.#memory = memory;
  }

  /** Makes bytes [0, end) addressable. */
  ensure(end: number): void {
    const have = this.#memory.buffer.byteLength;
    if (end > have) this.#memory.grow(Math.ceil((end - have) / PAGE_BYTES));
  }

  #refresh(): void {
    const buffer = this.#memory.buffer;
    if (buffer === this.#buffer) return;
    this.#buffer = buffer;
    this.#f64 = new Float64Array(buffer);
    this.#i32 = new Int32Array(buffer);
    this.#u32 = new Uint32Array(buffer);
  }

  get f64(): Float64Array {
    this.#refresh();
    return this.#f64;
  }

  get i32(): Int32Array {
    this.#refresh();
    return this.#i32;
  }

  get u32(): Uint32Array {
    this.#refresh();
    return this.#u32;
  }
}

export function align8(bytes: number): number {
  return Math.ceil(bytes / 8) * 8;
}

/**
 * Copies src[offset, offset + length) into view at element index `at`: the one copy in.
 * In plain arrays null or undefined (a SQL NULL as a driver returns it) becomes NaN, the
 * kernels' "no value", instead of the 0 a typed array would silently store.
 */
export function copyIn(
  view: Float64Array | Int32Array,
  at: number,
  src: ArrayLike<number | null | undefined>,
  offset: number,
  length: number,
): void {
  if (ArrayBuffer.isView(src)) {
    const typed = src as unknown as Float64Array; // any numeric typed array has subarray
    view.set(typed.subarray(offset, offset + length), at);
    return;
  }
  for (let i = 0; i < length; i++) view[at + i] = src[offset + i] ?? NaN;
}
