// IP address text <-> bytes, with one canonical text form (RFC 5952 for IPv6) so that
// addresses read from packets compare equal to the target address the caller gave.

export function parseIPv4(text: string): Uint8Array | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const p = parts[i];
    if (!/^\d{1,3}$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    out[i] = n;
  }
  return out;
}

export function formatIPv4(buf: Uint8Array, offset = 0): string {
  return `${buf[offset]}.${buf[offset + 1]}.${buf[offset + 2]}.${buf[offset + 3]}`;
}

export function parseIPv6(text: string): Uint8Array | null {
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  let words: number[] = [];
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parseHalf = (half: string): number[] | null => {
    if (half === '') return [];
    const out: number[] = [];
    const groups = half.split(':');
    for (let i = 0; i < groups.length; i++) {
      const g = groups[i];
      if (i === groups.length - 1 && g.includes('.')) {
        const v4 = parseIPv4(g);
        if (!v4) return null;
        out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
        out.push(parseInt(g, 16));
      }
    }
    return out;
  };
  const head = parseHalf(halves[0]);
  if (!head) return null;
  if (halves.length === 2) {
    const tail = parseHalf(halves[1]);
    if (!tail) return null;
    const fill = 8 - head.length - tail.length;
    if (fill < 1) return null;
    words = [...head, ...new Array<number>(fill).fill(0), ...tail];
  } else {
    words = head;
  }
  if (words.length !== 8) return null;
  const out = new Uint8Array(16);
  for (let i = 0; i < 8; i++) {
    out[i * 2] = words[i] >> 8;
    out[i * 2 + 1] = words[i] & 0xff;
  }
  return out;
}

/** RFC 5952 text: lower case, leading zeros dropped, the longest run (>= 2) of zero words as "::". */
export function formatIPv6(buf: Uint8Array, offset = 0): string {
  const w: number[] = [];
  for (let i = 0; i < 8; i++) w.push((buf[offset + i * 2] << 8) | buf[offset + i * 2 + 1]);
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (w[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && w[j] === 0) j++;
    if (j - i > bestLen) { bestStart = i; bestLen = j - i; }
    i = j;
  }
  const hex = (a: number[]) => a.map((x) => x.toString(16)).join(':');
  if (bestLen < 2) return hex(w);
  return `${hex(w.slice(0, bestStart))}::${hex(w.slice(bestStart + bestLen))}`;
}

/** Canonical text of an address, or null when it is not an IP address. */
export function canonicalAddress(text: string): string | null {
  const v4 = parseIPv4(text);
  if (v4) return formatIPv4(v4);
  const v6 = parseIPv6(text);
  return v6 ? formatIPv6(v6) : null;
}

export function addressFamily(text: string): 4 | 6 | null {
  if (parseIPv4(text)) return 4;
  if (parseIPv6(text)) return 6;
  return null;
}

export function parseAddress(text: string): Uint8Array | null {
  return parseIPv4(text) ?? parseIPv6(text);
}
