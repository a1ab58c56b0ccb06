// A bench child's memory: process.memoryUsage() with V8's heap spaces (name -> [size, used] bytes).
import { getHeapSpaceStatistics } from 'node:v8';
export function memory() {
  const spaces = {};
  for (const s of getHeapSpaceStatistics()) spaces[s.space_name] = [s.space_size, s.space_used_size];
  return { ...process.memoryUsage(), spaces };
}
