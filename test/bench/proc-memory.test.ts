// bench:soak's reading of /proc (bench/proc-memory.mjs): resident memory by kind, descriptors by kind.
import { describe, expect, it } from 'vitest';
import { descriptorKind, descriptorsByKind, memoryMap, parseSmaps, residentByKind } from '../../bench/proc-memory.mjs';

const mapping = (start: number, end: number, perms: string, name: string, rssKb: number) =>
  `${start.toString(16)}-${end.toString(16)} ${perms} 00000000 00:00 0 ${name}\nSize: ${(end - start) / 1024} kB\nRss: ${rssKb} kB\nPss: ${rssKb} kB\n`;
const MiB = 1024 * 1024;
const block = 64 * MiB;

describe('bench:soak /proc readings', () => {
  it('counts an anonymous 64 MiB-aligned block tiled exactly as a glibc arena heap, the rest by kind', () => {
    const text = [
      mapping(0x55_0000_0000, 0x55_0000_0000 + 2 * MiB, 'rw-p', '[heap]', 1500),
      // An arena heap: 3 MiB in use, the rest of its 64 MiB reserved.
      mapping(100 * block, 100 * block + 3 * MiB, 'rw-p', '', 2800),
      mapping(100 * block + 3 * MiB, 101 * block, '---p', '', 0),
      // Aligned, but the reservation runs past the block (V8's cage): not an arena.
      mapping(200 * block, 200 * block + MiB, 'rw-p', '', 900),
      mapping(200 * block + MiB, 203 * block, '---p', '', 0),
      // Not at the block's base: not an arena.
      mapping(300 * block + MiB, 300 * block + 2 * MiB, 'rw-p', '', 400),
      mapping(0x7f00_0000_0000, 0x7f00_0010_0000, 'r-xp', '/usr/lib/libc.so.6', 700),
      mapping(0x7fff_0000_0000, 0x7fff_0002_1000, 'rw-p', '[stack]', 120),
    ].join('');
    const maps = parseSmaps(text);
    expect(maps).toHaveLength(8);
    expect(residentByKind(maps)).toEqual({ arenas: 2800, arenaHeaps: 1, brk: 1500, anon: 900 + 400 + 120, files: 700 });
  });

  it('tells sockets, pipes, event descriptors and files apart', () => {
    expect(['socket:[123]', 'pipe:[9]', 'anon_inode:[eventfd]', '/tmp/x/hopwatch.duckdb', '/dev/null'].map(descriptorKind)).toEqual(['sockets', 'pipes', 'anon', 'files', 'files']);
  });

  it("reads this process's own map and descriptors", () => {
    const { kinds } = memoryMap(process.pid);
    expect(kinds.files).toBeGreaterThan(0);
    expect(kinds.anon + kinds.arenas + kinds.brk).toBeGreaterThan(0);
    const fds = descriptorsByKind(process.pid);
    expect(fds.files).toBeGreaterThanOrEqual(1);
  });
});
