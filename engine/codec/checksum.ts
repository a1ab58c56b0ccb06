// Internet checksum (RFC 1071): one's complement sum of 16-bit big-endian words.

/** One's complement sum of bytes [start, end), added to `initial`, folded to 16 bits. */
export function onesComplementSum(buf: Uint8Array, start: number, end: number, initial = 0): number {
  let sum = initial;
  let i = start;
  for (; i + 1 < end; i += 2) sum += (buf[i] << 8) | buf[i + 1];
  if (i < end) sum += buf[i] << 8;
  return fold(sum);
}

export function fold(sum: number): number {
  while (sum > 0xffff) sum = (sum & 0xffff) + Math.floor(sum / 0x10000);
  return sum;
}

/** The checksum field value for a folded sum computed with the checksum field zeroed. */
export function finishChecksum(sum: number): number {
  return ~fold(sum) & 0xffff;
}

/** Checksum of bytes [start, end) with an optional pseudo-header sum. */
export function internetChecksum(buf: Uint8Array, start: number, end: number, initial = 0): number {
  return finishChecksum(onesComplementSum(buf, start, end, initial));
}

/**
 * The 16-bit word that, written into a zeroed slot of a packet whose sum (that slot and the
 * checksum field zeroed) is `sumWithoutWord`, makes the packet verify with checksum field
 * `wantedChecksum`. Paris traceroute's trick: the checksum stays constant (ICMP) or carries
 * the probe number (UDP) while the flow fields that routers hash stay constant.
 */
export function compensationWord(sumWithoutWord: number, wantedChecksum: number): number {
  return ~fold(sumWithoutWord + wantedChecksum) & 0xffff;
}

/** True when a packet including its checksum field sums to 0xffff (i.e. it verifies). */
export function verifies(buf: Uint8Array, start: number, end: number, initial = 0): boolean {
  return onesComplementSum(buf, start, end, initial) === 0xffff;
}
