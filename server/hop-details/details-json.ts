// The per-host details of a hop as stored (hop_hosts.details): a compact JSON text, written
// only when it changed (details change rarely: an MPLS tunnel, an owner once the offline data
// loaded, a NAT). Keys are short because every distinct text is kept in the store.
import type { HopOwner, MplsLabel } from '../../engine/index.js';
import type { HopHostDetails } from '../contract/hop-details.js';

/** What the engine (or a remote agent's round) carries per hop besides latency. */
export interface HopSeen {
  ttl: number;
  address: string | null;
  /** Latency ms, or a latency code (timeout, not participating, stop/start: not an answer). */
  rtt: number;
  mpls?: MplsLabel[];
  owner?: HopOwner;
  quotedDscp?: number;
  natDetected?: boolean;
}

interface Stored {
  /** MPLS stack: [label, exp, bottom of stack 0/1, ttl] per entry. */
  m?: [number, number, number, number][];
  a?: number | null;
  n?: string | null;
  c?: string | null;
  s?: string | null;
  d?: number;
  x?: 1;
}

/** The stored text of a hop's details ('{}' when it carried none). Same details, same text. */
export function detailsText(h: HopSeen): string {
  // Most hops carry no details: no object to build and serialise for them (the ingest calls
  // this for every answer of every round).
  if (!h.mpls?.length && !h.owner && h.quotedDscp === undefined && !h.natDetected) return '{}';
  const o: Stored = {};
  if (h.mpls?.length) o.m = h.mpls.map((l) => [l.label, l.exp, l.bottomOfStack ? 1 : 0, l.ttl]);
  if (h.owner) {
    o.a = h.owner.asn;
    o.n = h.owner.asName;
    o.c = h.owner.country;
    o.s = h.owner.special;
  }
  if (h.quotedDscp !== undefined) o.d = h.quotedDscp;
  if (h.natDetected) o.x = 1;
  return JSON.stringify(o);
}

/** The contract fields of a stored text; a text that does not parse counts as no details. */
export function detailsFromText(text: string | null): Omit<HopHostDetails, 'Address' | 'Samples' | 'SharePercent'> {
  let o: Stored = {};
  try {
    const parsed: unknown = text ? JSON.parse(text) : {};
    if (parsed && typeof parsed === 'object') o = parsed as Stored;
  } catch {
    o = {};
  }
  return {
    Mpls: Array.isArray(o.m) ? o.m.map(([Label, Exp, bos, Ttl]) => ({ Label, Exp, BottomOfStack: bos === 1, Ttl })) : [],
    Asn: o.a ?? null,
    AsName: o.n ?? null,
    Country: o.c ?? null,
    Special: o.s ?? null,
    QuotedDscp: o.d ?? null,
    NatDetected: o.x === 1,
  };
}
