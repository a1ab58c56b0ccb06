// bench:soak's reading of /proc (bench/proc-memory.mjs): resident memory by kind, descriptors by kind.
import { describe, expect, it } from 'vitest';
import { acceptedConnections, connectionsOnPort, descriptorKind, descriptorsByKind, memoryMap, parseSmaps, residentByKind } from '../../bench/proc-memory.mjs';

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

  it("counts the connections accepted on a port by state, the server's side only", () => {
    const tcp = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:4EE0 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0 100 0 0 10 0',
      '   1: 0100007F:4EE0 0100007F:B9AE 01 00000000:00000000 00:00000000 00000000     0        0 2 2 0 20 4 30 18 -1',
      '   2: 0100007F:4EE0 0100007F:B9B0 01 00000000:00000000 00:00000000 00000000     0        0 3 2 0 20 4 30 18 -1',
      '   3: 0100007F:4EE0 0100007F:B9B2 08 00000000:00000000 00:00000000 00000000     0        0 4 2 0 20 4 30 18 -1',
      // The client's side of a connection to the port: not the server's.
      '   4: 0100007F:B9AE 0100007F:4EE0 01 00000000:00000000 00:00000000 00000000     0        0 5 2 0 20 4 30 18 -1',
      '   5: 0100007F:4EE1 0100007F:B9B4 01 00000000:00000000 00:00000000 00000000     0        0 6 2 0 20 4 30 18 -1',
    ].join('\n');
    expect(acceptedConnections(tcp, 20192)).toEqual({ established: 2, closeWait: 1 });
  });

  it('reads a listening socket of this process as no accepted connection, then one', async () => {
    const { createServer, connect } = await import('node:net');
    const server = createServer((s) => s.on('error', () => undefined));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    expect(connectionsOnPort(port).established).toBe(0);
    const client = connect(port, '127.0.0.1');
    await new Promise<void>((r) => server.once('connection', () => r()));
    expect(connectionsOnPort(port).established).toBe(1);
    client.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  });
});
