// The raw exports of dist/wasm/kernels.wasm (wasm/assembly/index.ts). Pointers are byte
// offsets into the module's memory; wasm/kernels.ts is the only place that calls these.

import type { WasmGlobal, WasmMemory } from './wasm-api.js';

export interface KernelExports {
  memory: WasmMemory;
  SPECIAL_LATENCY_BASE: WasmGlobal;
  CODE_TIMEOUT: WasmGlobal;
  CODE_NOT_PARTICIPATING: WasmGlobal;
  CODE_PENDING: WasmGlobal;
  CODE_STOP_START: WasmGlobal;
  CODE_IGNORE: WasmGlobal;
  FLAG_HAS_NOT_PARTICIPATING: WasmGlobal;
  FLAG_IS_START_TRACE: WasmGlobal;
  cellSize(): number;
  heapBase(): number;
  resetCells(cellsPtr: number, cellCount: number): void;
  accumulateSamples(
    cellsPtr: number,
    timePtr: number,
    hopPtr: number,
    latencyPtr: number,
    n: number,
    start: number,
    period: number,
    bucketCount: number,
    hopCount: number,
  ): void;
  accumulateRollups(
    cellsPtr: number,
    timePtr: number,
    hopPtr: number,
    countPtr: number,
    lostPtr: number,
    sumPtr: number,
    minPtr: number,
    maxPtr: number,
    firstPtr: number,
    lastValidPtr: number,
    jitterSumPtr: number,
    jitterPairsPtr: number,
    lastPtr: number,
    flagsPtr: number,
    n: number,
    start: number,
    period: number,
    bucketCount: number,
    hopCount: number,
    skipHop: number,
  ): void;
  finalizeBuckets(
    cellsPtr: number,
    bucketCount: number,
    hopCount: number,
    countOut: number,
    lostOut: number,
    sumOut: number,
    minOut: number,
    maxOut: number,
    firstOut: number,
    lastValidOut: number,
    jitterSumOut: number,
    jitterPairsOut: number,
    lastOut: number,
    flagsOut: number,
    averageOut: number,
    jitterOut: number,
    routeBitMaskOut: number,
    routeLengthOut: number,
  ): void;
  finalizeRowStats(
    cellsPtr: number,
    hopCount: number,
    averageOut: number,
    minOut: number,
    maxOut: number,
    currentOut: number,
    lossPercentOut: number,
    goodCountOut: number,
    countOut: number,
    lostOut: number,
    jitterOut: number,
  ): void;
}

/** The Insights statistics kernels (wasm/assembly/stats.ts). */
export interface StatsExports {
  memory: WasmMemory;
  DESCRIBE_SLOTS: WasmGlobal;
  heapBase(): number;
  describe(ptr: number, n: number, scratch: number, out: number): number;
  pearson(xPtr: number, yPtr: number, n: number): number;
  segmentsAbove(ptr: number, n: number, threshold: number, minRun: number, maxGap: number, out: number): number;
  meanShift(ptr: number, n: number, minSide: number, out: number): number;
}
