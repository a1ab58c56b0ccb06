// HopDetails of a target row (spec 2 "Target row"; issue 16): what the tracer learned about a
// hop beyond its latency: every address that answered there in the range with its share of
// the answers (several hosts at one hop: ECMP, flapping routes), and per address the MPLS
// label stack it quoted (RFC 4950), who it belongs to (AS, country, or a special range), the
// DSCP it quoted back and whether a translating device (NAT) sits before it.

/** One entry of an MPLS label stack (RFC 4950), top of the stack first. */
export interface MplsLabelDetails {
  Label: number;
  /** Experimental bits (traffic class), 0-7. */
  Exp: number;
  BottomOfStack: boolean;
  Ttl: number;
}

/** One address that answered at the hop. */
export interface HopHostDetails {
  Address: string;
  /** Answers from this address in the range. */
  Samples: number;
  /** Share of the hop's answers in the range, percent (0-100). */
  SharePercent: number;
  /** The label stack of its latest answer that carried one; empty when none did. */
  Mpls: MplsLabelDetails[];
  /** Autonomous system number and name (offline data), null when special or unknown. */
  Asn: number | null;
  AsName: string | null;
  /** ISO 3166 alpha-2 country code, null when unknown. */
  Country: string | null;
  /** 'Private', 'Loopback', 'Shared (CGN)'...: an address no AS announces; null for a public one. */
  Special: string | null;
  /** The DSCP of our probe as this host quoted it back; null when not known. */
  QuotedDscp: number | null;
  /** A device before this hop translated our UDP probe (the quoted checksum differs). */
  NatDetected: boolean;
}

/** A hop's details: its hosts, most answers first. Null on rows whose hop never answered in the range. */
export interface HopDetails {
  Hosts: HopHostDetails[];
}

/** The grid columns that show HopDetails (hidden by default, chosen in the column menu). */
export const HopDetailColumns = ['Hosts', 'MPLS', 'AS', 'Country', 'NAT', 'DSCP'] as const;
export type HopDetailColumn = (typeof HopDetailColumns)[number];

/** "24001 exp 0 ttl 1 | 16 exp 0 ttl 1 S": the stack top first, S marks the bottom of the stack. */
export function mplsText(stack: MplsLabelDetails[]): string {
  return stack.map((l) => `${l.Label} exp ${l.Exp} ttl ${l.Ttl}${l.BottomOfStack ? ' S' : ''}`).join(' | ');
}

/** "AS15169 GOOGLE", the special range's name, or '' when unknown. */
export function asText(h: HopHostDetails): string {
  if (h.Special) return h.Special;
  if (h.Asn === null) return '';
  return h.AsName ? `AS${h.Asn} ${h.AsName}` : `AS${h.Asn}`;
}

/** "10.0.0.1 60%, 10.0.0.2 40%" when several hosts answered; '' for one (the IP column shows it). */
export function hostsText(d: HopDetails | null): string {
  if (!d || d.Hosts.length < 2) return '';
  return d.Hosts.map((h) => `${h.Address} ${formatShare(h.SharePercent)}%`).join(', ');
}

function formatShare(p: number): string {
  return p >= 10 || p === 0 ? p.toFixed(0) : p.toFixed(1);
}

/**
 * The display text of every HopDetails column. Several hosts: the values of each host that
 * differ are joined with ", " in the order of the hosts (most answers first), so a path where
 * only one of two balanced routers is an MPLS tunnel shows both.
 */
export function hopDetailColumnTexts(d: HopDetails | null): Record<HopDetailColumn, string> {
  const hosts = d?.Hosts ?? [];
  const distinct = (f: (h: HopHostDetails) => string) => [...new Set(hosts.map(f).filter((t) => t !== ''))].join(', ');
  return {
    Hosts: hostsText(d),
    MPLS: distinct((h) => mplsText(h.Mpls)),
    AS: distinct(asText),
    Country: distinct((h) => h.Country ?? ''),
    NAT: hosts.some((h) => h.NatDetected) ? 'NAT' : '',
    DSCP: distinct((h) => (h.QuotedDscp === null ? '' : String(h.QuotedDscp))),
  };
}
