// Discovery (spec 3 section 2.5, issue 24): finds the five sources and starts their traces.
// Local: the default gateway (routing table), the DNS resolver (resolv.conf), the provider
// edge (the first public-address hop of the trace to the first external source that answers).
// External: the two addresses of Settings > General. A source that cannot be found keeps its
// card, with the reason, so the user sees what is missing instead of four cards.
import { SidekickSourceKind, type SidekickSourceKind as Kind } from '../contract/sidekick.js';
import { providerEdgeOf, type PrivateRanges, type RouteHop } from './addresses.js';
import { readDefaultGateway, readResolver, type MachineView } from './machine-view.js';
import type { SidekickTargetRecord } from './repository.js';

export interface DiscoverySources {
  /**
   * Where the gateway and resolver are read (this server's routing table and resolv.conf), or
   * why they are not: a hosted customer's agent is not this server, whose are the provider's.
   */
  view: MachineView | { unknown: string };
  ranges: PrivateRanges;
  externals: readonly [string, string];
  /** Starts a trace, answers its target (session) id; throws with a message a person can act on. */
  startTrace(target: string): Promise<number>;
  /** The hops the trace of a session has seen so far (address per hop). */
  routeOf(sessionId: number): Promise<RouteHop[]>;
  /** Records a discovered target as soon as it is known (the console shows them one by one). */
  found(t: SidekickTargetRecord): Promise<void>;
  /** How long to wait for the provider edge to show in the external trace. */
  edgeWaitMs: number;
  signal: AbortSignal;
  sleep?: (ms: number) => Promise<void>;
}

export const SourceText: Record<Kind, { position: number; label: string; description: string }> = {
  DefaultGateway: { position: 0, label: 'Default Gateway', description: 'The router your machine sends everything to first (its default route).' },
  DnsResolver: { position: 1, label: 'DNS Resolver', description: 'The server that turns names into addresses for your machine (resolv.conf).' },
  ProviderEdge: { position: 2, label: 'Provider Edge', description: "The first hop of your internet provider's network (the first public address on the way out)." },
  External1: { position: 3, label: 'External Source 1', description: 'A well-known address on the internet (Settings > General).' },
  External2: { position: 4, label: 'External Source 2', description: 'A second well-known address on the internet (Settings > General).' },
};

const defaultSleep = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));

export async function discover(s: DiscoverySources): Promise<void> {
  const sleep = s.sleep ?? defaultSleep;
  const record = (kind: Kind, target: string, sessionId: number | null, notFoundReason = '') =>
    s.found({ ...SourceText[kind], kind, originalTarget: target, sessionId, notFoundReason });
  const start = async (kind: Kind, target: string | undefined, missing: string): Promise<number | null> => {
    if (s.signal.aborted) return null;
    if (!target) {
      await record(kind, '', null, missing);
      return null;
    }
    try {
      const id = await s.startTrace(target);
      await record(kind, target, id);
      return id;
    } catch (err) {
      await record(kind, target, null, (err as Error).message);
      return null;
    }
  };

  const externals = [
    await start(SidekickSourceKind.External1, s.externals[0]?.trim(), 'No external source 1 in Settings > General.'),
    await start(SidekickSourceKind.External2, s.externals[1]?.trim(), 'No external source 2 in Settings > General.'),
  ];
  const view = s.view;
  if ('unknown' in view) {
    await start(SidekickSourceKind.DefaultGateway, undefined, view.unknown);
    await start(SidekickSourceKind.DnsResolver, undefined, view.unknown);
  } else {
    await start(SidekickSourceKind.DefaultGateway, await readDefaultGateway(view), 'No default route in the routing table.');
    await start(SidekickSourceKind.DnsResolver, await readResolver(view), 'No nameserver in resolv.conf.');
  }

  // The provider edge: watch the external traces until one shows a public hop before its target.
  const deadline = Date.now() + s.edgeWaitMs;
  let edge: string | undefined;
  while (!edge && !s.signal.aborted && Date.now() < deadline) {
    for (const [i, id] of externals.entries()) {
      if (id === null) continue;
      edge = providerEdgeOf(await s.routeOf(id), s.externals[i].trim(), s.ranges);
      if (edge) break;
    }
    if (!edge) await sleep(1000);
  }
  const why = externals.every((id) => id === null)
    ? 'No external source could be traced, so the way out is unknown.'
    : `No hop with a public address answered on the way to the external sources within ${Math.round(s.edgeWaitMs / 1000)} s.`;
  await start(SidekickSourceKind.ProviderEdge, edge, why);
}
