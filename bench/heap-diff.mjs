// node bench/heap-diff.mjs A.heapsnapshot B.heapsnapshot [top]: what grew between two heap
// snapshots (bench:soak --snapshots), by node type and constructor/name: count and self size
// in each, largest growth first. A first look; Chrome DevTools' Comparison view for retainers.
import { readFileSync } from 'node:fs';

function tally(path) {
  const snap = JSON.parse(readFileSync(path, 'utf8'));
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const [iType, iName, iSize] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const out = new Map();
  const nodes = snap.nodes;
  for (let i = 0; i < nodes.length; i += fields.length) {
    const type = types[nodes[i + iType]];
    let name = snap.strings[nodes[i + iName]];
    // Strings and numbers by type alone: their text is not a class.
    if (type === 'string' || type === 'concatenated string' || type === 'sliced string' || type === 'number') name = '';
    const key = `${type} ${name.slice(0, 80)}`;
    const t = out.get(key) ?? { count: 0, size: 0 };
    t.count++;
    t.size += nodes[i + iSize];
    out.set(key, t);
  }
  return out;
}

const [a, b, top = '25'] = process.argv.slice(2);
const before = tally(a);
const after = tally(b);
const rows = [...new Set([...before.keys(), ...after.keys()])].map((k) => {
  const x = before.get(k) ?? { count: 0, size: 0 };
  const y = after.get(k) ?? { count: 0, size: 0 };
  return { k, dCount: y.count - x.count, dSize: y.size - x.size, count: y.count, size: y.size };
});
rows.sort((p, q) => q.dSize - p.dSize);
const total = (m) => [...m.values()].reduce((s, t) => s + t.size, 0);
console.log(`self size ${(total(before) / 1048576).toFixed(1)} MB -> ${(total(after) / 1048576).toFixed(1)} MB`);
console.log('growth KB | count growth | now: count, KB | type name');
for (const r of rows.slice(0, Number(top))) console.log(`${(r.dSize / 1024).toFixed(1)} | ${r.dCount} | ${r.count}, ${(r.size / 1024).toFixed(1)} | ${r.k}`);
