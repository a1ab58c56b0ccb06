// Writes one fan-out frame to many WebSocket connections' sockets at once, on several threads
// (server/hub/native/fanout.c; docs/hub.md "Writes on several threads"). Only for a socket
// with nothing queued: its frame then goes out whole or in part straight away, and the hub
// queues what the socket did not take before anything else is written to it.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';

export interface FanoutAddon {
  writeAll(fds: Int32Array, count: number, frame: Buffer, written: Int32Array, threads: number): void;
}

/** The addon's place beside the built hub (dist), or in dist when the hub runs from source (tests). */
const addonPaths = ['./native/fanout.node', '../../dist/server/hub/native/fanout.node'];

/** The built addon, or undefined where it was not built. */
export function fanoutAddon(): FanoutAddon | undefined {
  for (const path of addonPaths) {
    const url = new URL(path, import.meta.url);
    if (existsSync(url)) return createRequire(import.meta.url)(url.pathname) as FanoutAddon;
  }
  return undefined;
}

/**
 * A WebSocket text frame as a server sends it (RFC 6455 5.2: FIN, opcode 1, no mask), for a
 * payload already encoded: the same bytes for every connection.
 */
export function textFrame(payload: Buffer): Buffer {
  const n = payload.length;
  let header: Buffer;
  if (n < 126) {
    header = Buffer.from([0x81, n]);
  } else if (n < 65536) {
    header = Buffer.alloc(4);
    header[0] = 0x81;
    header[1] = 126;
    header.writeUInt16BE(n, 2);
  } else {
    header = Buffer.alloc(10);
    header[0] = 0x81;
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(n), 2);
  }
  return Buffer.concat([header, payload]);
}

export class DirectWriter {
  private fds = new Int32Array(0);
  private written = new Int32Array(0);

  constructor(
    private readonly addon: FanoutAddon,
    /** Threads writing at once (the calling one included). */
    readonly threads: number,
  ) {}

  /**
   * Writes frame to each descriptor; returns the bytes each socket took (negative: -errno, none)
   * in an array reused by the next call.
   */
  writeAll(fds: readonly number[], frame: Buffer): Int32Array {
    if (this.fds.length < fds.length) {
      this.fds = new Int32Array(fds.length);
      this.written = new Int32Array(fds.length);
    }
    for (let i = 0; i < fds.length; i++) this.fds[i] = fds[i]!;
    this.addon.writeAll(this.fds, fds.length, frame, this.written, this.threads);
    return this.written;
  }
}

/**
 * The hub's writer: on unless HOPWATCH_HUB_DIRECT_WRITES=0 (an A/B switch for bench:hub), and
 * only where the addon was built (npm run build); otherwise every frame goes through ws.
 */
export function directWriterFromEnv(env: NodeJS.ProcessEnv = process.env): DirectWriter | undefined {
  if (env.HOPWATCH_HUB_DIRECT_WRITES === '0') return undefined;
  const addon = fanoutAddon();
  return addon ? new DirectWriter(addon, Math.min(4, availableParallelism())) : undefined;
}
