// Where a process's resident memory and descriptors are, from /proc (bench:soak's diagnosis of
// issue 45 item 7: RSS after a full collection grew ~10 MB/hour more than V8, its array
// buffers and DuckDB's own count explain). Pure parsers apart from the reads, so they are
// unit-tested (test/bench/proc-memory.test.ts).
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

/** glibc's thread arenas live in heaps of HEAP_MAX_SIZE (64 MiB on 64-bit), aligned to it. */
const ArenaHeapBytes = 64 * 1024 * 1024;

/** The mappings of /proc/PID/smaps text: { start, end, perms, name, rssKb }. */
export function parseSmaps(text) {
  const maps = [];
  let cur = null;
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      cur = { start: BigInt(`0x${head[1]}`), end: BigInt(`0x${head[2]}`), perms: head[3], name: head[4], rssKb: 0 };
      maps.push(cur);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && cur) cur.rssKb = Number(rss[1]);
  }
  return maps;
}

/**
 * Resident kB by kind: `arenas` (anonymous mappings that tile a 64 MiB-aligned block exactly,
 * starting at its base: glibc's thread-arena heaps, where DuckDB's threads and the libuv pool
 * malloc), `brk` ([heap]: the main arena), `anon` (every other anonymous mapping: V8's heap
 * pages, large mallocs served by mmap, thread stacks), `files` (mapped files: code, the ICU
 * data) and the number of arena heaps.
 */
export function residentByKind(maps) {
  const out = { arenas: 0, arenaHeaps: 0, brk: 0, anon: 0, files: 0 };
  const big = BigInt(ArenaHeapBytes);
  const anonymous = (m) => m.name === '';
  const byBlock = new Map();
  for (const m of maps) if (anonymous(m)) byBlock.set(m.start / big, [...(byBlock.get(m.start / big) ?? []), m]);
  const arenaMaps = new Set();
  for (const [block, ms] of byBlock) {
    const base = block * big;
    const sorted = ms.sort((a, b) => (a.start < b.start ? -1 : 1));
    let at = base;
    let tiles = sorted[0].start === base;
    for (const m of sorted) {
      tiles &&= m.start === at;
      at = m.end;
    }
    if (tiles && at === base + big) {
      out.arenaHeaps++;
      for (const m of sorted) arenaMaps.add(m);
    }
  }
  for (const m of maps) {
    if (arenaMaps.has(m)) out.arenas += m.rssKb;
    else if (m.name === '[heap]') out.brk += m.rssKb;
    else if (anonymous(m) || m.name.startsWith('[')) out.anon += m.rssKb;
    else out.files += m.rssKb;
  }
  return out;
}

/** A descriptor's kind from its /proc/PID/fd link: socket, pipe, anon_inode (eventfd, epoll, timerfd) or file. */
export function descriptorKind(link) {
  if (link.startsWith('socket:')) return 'sockets';
  if (link.startsWith('pipe:')) return 'pipes';
  if (link.startsWith('anon_inode:')) return 'anon';
  return 'files';
}

/** Open descriptors of a process by kind. */
export function descriptorsByKind(pid) {
  const out = { sockets: 0, pipes: 0, anon: 0, files: 0 };
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      out[descriptorKind(readlinkSync(`/proc/${pid}/fd/${fd}`))]++;
    } catch {} // closed while listed
  }
  return out;
}

/** The process's smaps text and its resident kB by kind. */
export function memoryMap(pid) {
  const text = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  return { text, kinds: residentByKind(parseSmaps(text)) };
}

/**
 * Connections accepted on a local TCP port, by state, from /proc/net/tcp(6) text: the server's
 * side of each is the line whose local address has that port. `established`: open both ways
 * (a client holds it); `closeWait`: the client has gone and the server has not closed its side
 * (what a descriptor leak of sockets looks like).
 */
export function acceptedConnections(tcpText, port) {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const out = { established: 0, closeWait: 0 };
  for (const line of tcpText.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 4 || !f[1].endsWith(`:${hex}`)) continue;
    if (f[3] === '01') out.established++;
    else if (f[3] === '08') out.closeWait++;
  }
  return out;
}

/** The same, read from this host's (this network namespace's) IPv4 and IPv6 tables. */
export function connectionsOnPort(port) {
  const v4 = acceptedConnections(readFileSync('/proc/net/tcp', 'utf8'), port);
  const v6 = acceptedConnections(readFileSync('/proc/net/tcp6', 'utf8'), port);
  return { established: v4.established + v6.established, closeWait: v4.closeWait + v6.closeWait };
}
