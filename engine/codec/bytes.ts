// Big-endian writes of 16- and 32-bit fields into packet bytes (network byte order), shared
// by the probe builder and the simulated network's reply builder.
export function write16(buf: Uint8Array, o: number, v: number): void {
  buf[o] = (v >> 8) & 0xff;
  buf[o + 1] = v & 0xff;
}

export function write32(buf: Uint8Array, o: number, v: number): void {
  buf[o] = (v >>> 24) & 0xff;
  buf[o + 1] = (v >>> 16) & 0xff;
  buf[o + 2] = (v >>> 8) & 0xff;
  buf[o + 3] = v & 0xff;
}
