// Reverse DNS names of hop addresses: cached, looked up in the background with a timeout.
// nameOf() answers from the cache at once, so a round is never delayed by DNS.
import { Resolver } from 'node:dns/promises';

export type ReverseLookup = (address: string) => Promise<string | null>;

const FOUND_TTL_MS = 60 * 60_000;
const MISSING_TTL_MS = 5 * 60_000;

export function systemReverseLookup(timeoutMs = 2000): ReverseLookup {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  return async (address) => {
    const names = await resolver.reverse(address);
    return names[0] ?? null;
  };
}

interface Entry {
  name: string | null;
  expires: number;
  pending: boolean;
}

export class ReverseDnsCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly lookup: ReverseLookup, private readonly timeoutMs = 2000, private readonly now = Date.now) {}

  /** The cached name (null if unknown or not yet looked up); starts a lookup when needed. */
  nameOf(address: string): string | null {
    const e = this.entries.get(address);
    const t = this.now();
    if (e && (e.pending || e.expires > t)) return e.name;
    const entry: Entry = { name: e?.name ?? null, expires: 0, pending: true };
    this.entries.set(address, entry);
    void this.resolve(address, entry);
    return entry.name;
  }

  private async resolve(address: string, entry: Entry): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), this.timeoutMs); });
      const name = await Promise.race([this.lookup(address).catch(() => null), timeout]);
      entry.name = name;
      entry.expires = this.now() + (name ? FOUND_TTL_MS : MISSING_TTL_MS);
    } finally {
      clearTimeout(timer);
      entry.pending = false;
    }
  }
}

let shared: ReverseDnsCache | null = null;
/** One cache for all traces that use the system resolver. */
export function sharedReverseDns(): ReverseDnsCache {
  shared ??= new ReverseDnsCache(systemReverseLookup());
  return shared;
}
