// Typed loader of the rawsock addon (engine/native/rawsock.c, built into dist/engine/native).
import { createRequire } from 'node:module';

export type RawSocketHandle = { readonly __rawSocket: unique symbol };

export interface RawSockAddon {
  /** Throws an Error with code 'EPERM' without CAP_NET_RAW. */
  open(family: 4 | 6, protocol: number): RawSocketHandle;
  setOption(sock: RawSocketHandle, level: number, option: number, value: number | Buffer): void;
  /** Returns the send time in ns (CLOCK_MONOTONIC, as process.hrtime), or -errno. */
  send(sock: RawSocketHandle, buf: Buffer, length: number, address: string): number;
  /** Calls back once per received datagram (bytes in buf, sender, receive time in ns). */
  receive(sock: RawSocketHandle, buf: Buffer, cb: (bytes: number, source: string, receivedAtNs: number) => void): void;
  /** Reads (and calls back for) every datagram queued now, without waiting for the loop. */
  drain(sock: RawSocketHandle): void;
  unref(sock: RawSocketHandle): void;
  close(sock: RawSocketHandle): void;
  now(): number;
}

let addon: RawSockAddon | null = null;

export function rawsock(): RawSockAddon {
  addon ??= createRequire(import.meta.url)('../native/rawsock.node') as RawSockAddon;
  return addon;
}
