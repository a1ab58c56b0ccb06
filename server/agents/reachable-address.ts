// Whether an agent on another machine can reach the server address an Auto Setup link names
// (issue 40 item 4). A console opened at 127.0.0.1 made links saying server=127.0.0.1, and
// the install at a branch office failed with ECONNREFUSED. Pure: the address alone decides,
// no lookup (the server cannot see the agent's network; it can only see addresses that
// never lead to it from elsewhere).
import { isIPv4, isIPv6 } from 'node:net';

export type UnreachableKind = 'loopback' | 'link-local' | 'unspecified' | 'single-label' | 'invalid';

export interface UnreachableAddress {
  kind: UnreachableKind;
  host: string;
  /** Says what is wrong and what to do, for the console. */
  text: string;
}

const Why: Record<UnreachableKind, string> = {
  loopback: 'a loopback address (every machine answers it itself)',
  'link-local': 'a link-local address (not routed beyond the local network segment)',
  unspecified: 'an unspecified address (nothing can connect to it)',
  'single-label': 'a name without a domain (other networks rarely resolve it)',
  invalid: 'not a server address',
};

const v4 = (host: string) => host.split('.').map(Number);

function kindOfIPv4(host: string): UnreachableKind | undefined {
  const [a, b] = v4(host);
  if (a === 127) return 'loopback';
  if (a === 0) return 'unspecified';
  if (a === 169 && b === 254) return 'link-local';
  return undefined;
}

function kindOfIPv6(host: string): UnreachableKind | undefined {
  const h = host.toLowerCase();
  // An IPv4-mapped address (the URL parser writes ::ffff:127.0.0.1 as ::ffff:7f00:1).
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(h);
  if (mapped) {
    const [hi, lo] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
    return kindOfIPv4(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/.test(h)) return kindOfIPv4(h.slice(7));
  if (h === '::1') return 'loopback';
  if (h === '::') return 'unspecified';
  // fe80::/10: the first 10 bits 1111 1110 10.
  const first = parseInt(h.split(':')[0] || '0', 16);
  if ((first & 0xffc0) === 0xfe80) return 'link-local';
  return undefined;
}

function kindOf(host: string): UnreachableKind | undefined {
  if (isIPv4(host)) return kindOfIPv4(host);
  if (isIPv6(host)) return kindOfIPv6(host);
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return 'loopback';
  if (!name.includes('.')) return 'single-label';
  return undefined;
}

/** The reason an agent elsewhere cannot reach `serverUrl`, or undefined when nothing says so. */
export function unreachableAddress(serverUrl: string): UnreachableAddress | undefined {
  let host: string;
  let kind: UnreachableKind | undefined;
  try {
    host = new URL(serverUrl).hostname.replace(/^\[(.*)\]$/, '$1');
    kind = kindOf(host);
  } catch {
    [host, kind] = [serverUrl, 'invalid'];
  }
  if (!kind) return undefined;
  const text =
    `The link names ${host}, ${Why[kind]}: an agent on another machine cannot reach this server there. ` +
    'Set the public URL in Settings > General (or HOPWATCH_PUBLIC_URL) to the address agents reach this server at, then copy the link again.';
  return { kind, host, text };
}
