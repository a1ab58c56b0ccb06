// node bench/cpu-profile-summary.mjs FILE.cpuprofile [--top 30]: where a V8 CPU profile's time
// went (bench:soak --cpu-profile, or node --cpu-prof): self time by source file and by function,
// and inclusive time (the function and what it called) of the heaviest functions, each as a
// share of the profile's samples. Paths are shown from the project's root.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '30' } } });
const top = Number(values.top);
const profile = JSON.parse(readFileSync(positionals[0], 'utf8'));

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
// Self samples per node, from the sample list (hitCount is absent in some profiles).
const self = new Map();
for (const id of profile.samples) self.set(id, (self.get(id) ?? 0) + 1);
const total = profile.samples.length;
const seconds = (profile.endTime - profile.startTime) / 1e6;

const short = (url) => (url ? url.replace(/^file:\/\//, '').replace(/^.*?\/(dist|node_modules)\//, '$1/') : '(native)');
const fnKey = (n) => `${n.callFrame.functionName || '(anonymous)'} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

const add = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v);
// The project's own code (dist/): time in libraries, native code and the runtime counts toward
// the project function that called it, and that function's area (dist/server/ingest, ...).
const ownCode = (n) => /\/dist\//.test(n.callFrame.url);
const areaOf = (url) => short(url).split('/').slice(0, 3).join('/').replace(/\.js$/, '');
const byOwnFn = new Map();
const byArea = new Map();
const selfByFile = new Map();
const selfByFn = new Map();
const inclusiveByFn = new Map();
for (const [id, count] of self) {
  const n = byId.get(id);
  add(selfByFile, short(n.callFrame.url), count);
  add(selfByFn, fnKey(n), count);
  let own = id;
  while (own !== undefined && !ownCode(byId.get(own))) own = parent.get(own);
  const ownNode = own === undefined ? null : byId.get(own);
  const idle = ['(idle)', '(program)', '(garbage collector)'].includes(n.callFrame.functionName);
  add(byOwnFn, ownNode ? fnKey(ownNode) : idle ? n.callFrame.functionName : `(outside the project) ${fnKey(n)}`, count);
  add(byArea, ownNode ? areaOf(ownNode.callFrame.url) : idle ? n.callFrame.functionName : '(outside the project: sockets, HTTP, timers)', count);
  // Inclusive: every distinct function on the sample's stack, once.
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const k = fnKey(byId.get(at));
    if (!seen.has(k)) {
      seen.add(k);
      add(inclusiveByFn, k, count);
    }
  }
}

const pct = (c) => `${((100 * c) / total).toFixed(1).padStart(5)}%`;
const print = (title, m) => {
  console.log(`\n${title}`);
  for (const [k, c] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(c)}  ${k}`);
};
console.log(`${positionals[0]}: ${total} samples over ${seconds.toFixed(1)} s`);
print('time by area (the nearest project frame: libraries and native code count toward their caller)', byArea);
print('time by the nearest project function', byOwnFn);
print('self time by file', selfByFile);
print('self time by function', selfByFn);
print('inclusive time by function', inclusiveByFn);
