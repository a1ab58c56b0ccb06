// JSON.parse reads any depth, but everything after it that walks the value recursively
// (JSON.stringify when a body is stored or logged, schema validators, services) overflows
// the stack on a value nested thousands deep. Input is refused past a depth no real call
// needs; the check itself walks with an explicit stack, so it cannot overflow.

/** Deepest nesting of arrays and objects a request body or hub message may have. */
export const MaxJsonDepth = 64;

/** True when `value` nests arrays or objects deeper than `max`. */
export function jsonDepthExceeds(value: unknown, max = MaxJsonDepth): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

export const TooDeepText = `The JSON is nested more than ${MaxJsonDepth} levels deep.`;
