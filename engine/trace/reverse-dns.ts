// Reverse DNS names of hop addresses: cached, looked up in the background with a timeout.
// nameOf() answers from the cache at once, so a round is never delayed by DNS.
//
// The lookup is the system resolver's (getnameinfo through dns.lookupService), in the order
// the machine's name service switch gives (/etc/nsswitch.conf "hosts: files dns"): so
// 127.0.0.1 is /etc/hosts' `localhost`, as ping, mtr and traceroute show it, not whatever the
// DNS server answers for it (issue 41 item 12: the console showed the resolver's own name).
// getnameinfo blocks a libuv pool thread while it waits on DNS, and that pool also serves
// file reads: at most SystemLookupsInFlight run at once, the rest wait their turn.
import { lookupService } from 'node:dns/promises';
import { isIP } from 'node:net';

export type ReverseLookup = (address: string) => Promise<string | null>;

const FOUND_TTL_MS = 60 * 60_000;
const MISSING_TTL_MS = 5 * 60_000;
/** Lookups on the libuv pool at once (it has 4 threads by default). */
export const SystemLookupsInFlight = 2;

/** Runs at most `limit` of the tasks given at once, the others in order after. */
export function limitConcurrency(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((go) => waiting.push(go));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

export function systemReverseLookup(): ReverseLookup {
  const limit = limitConcurrency(SystemLookupsInFlight);
  return (address) =>
    limit(async () => {
      const { hostname } = await lookupService(address, 0).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOTFOUND') return { hostname: '' };
        throw err;
      });
      // Some resolvers answer the address itself when it has no name: that is no name.
      return hostname && !isIP(hostname) ? hostname : null;
    });
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
    // After the timeout the entry counts as nameless for a while; an answer that still comes
    // (a lookup that waited its turn, a slow server) is kept all the same.
    const timer = setTimeout(() => {
      if (!entry.pending) return;
      entry.pending = false;
      entry.expires = this.now() + MISSING_TTL_MS;
    }, this.timeoutMs);
    const name = await this.lookup(address).catch(() => null);
    clearTimeout(timer);
    if (name) {
      entry.name = name;
      entry.expires = this.now() + FOUND_TTL_MS;
    } else if (entry.pending) {
      entry.name = null;
      entry.expires = this.now() + MISSING_TTL_MS;
    }
    entry.pending = false;
  }
}

let shared: ReverseDnsCache | null = null;
/** One cache for all traces that use the system resolver. */
export function sharedReverseDns(): ReverseDnsCache {
  shared ??= new ReverseDnsCache(systemReverseLookup());
  return shared;
}
