// Re-exported so web/ imports the one definition through the contract.
export { SpecialLatencyBase, LatencyCode, isSpecialLatency, latencyDisplayText } from '../../engine/latency-codes.js';
