// What Sidekick will trace, said before Get Started (issue 41 item 13): the welcome screen
// lists each destination with its address, read the way discovery reads them (the same
// discoveryInputs, the same routing table and resolv.conf), so an operator knows which hosts
// will be probed, and that the external ones come from Settings > General. Reading the plan
// probes nothing.
import { LocalMachineAgentId } from '../contract/sessions.js';
import { SidekickSourceKind, type SidekickPlannedSource } from '../contract/sidekick.js';
import type { Principal } from '../account/principal.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import { findAgent } from '../agents/repository.js';
import { SourceText } from './discovery.js';
import { readDefaultGateway, readResolver } from './machine-view.js';
import { discoveryInputs, sidekickAvailable, SidekickUnavailable, type SidekickDeps } from './service.js';
import * as repo from './repository.js';

export const ProviderEdgeNote = 'Found while Sidekick traces: the first hop with a public address on the way to the external sources.';

export async function plannedSources(deps: Pick<SidekickDeps, 'store' | 'config'>, p: Principal, args: { agentId?: number } = {}): Promise<SidekickPlannedSource[]> {
  if (!sidekickAvailable(deps.config)) throw conflict(SidekickUnavailable);
  const previous = await deps.store.read((q) => repo.findSidekick(q, p.accountId));
  const agentId = args.agentId ?? previous?.agentId ?? LocalMachineAgentId;
  if (!Number.isSafeInteger(agentId)) throw badRequest(`"${agentId}" is not an agent id.`);
  // Only whose agent it is: the plan starts nothing, so trace limits are for Get Started to check.
  if (agentId !== LocalMachineAgentId) {
    const agent = await deps.store.read((q) => findAgent(q, agentId));
    if (!agent || agent.accountId !== p.accountId) throw notFound(`Agent ${agentId} not found.`);
  }
  const { externals, view } = await discoveryInputs(deps, p, agentId);
  const local = 'unknown' in view ? { gateway: undefined, resolver: undefined } : { gateway: await readDefaultGateway(view), resolver: await readResolver(view) };
  const unknown = 'unknown' in view ? view.unknown : undefined;
  const source = (Kind: SidekickSourceKind, address: string | undefined, missing: string): SidekickPlannedSource => ({
    Kind,
    Label: SourceText[Kind].label,
    Description: SourceText[Kind].description,
    Address: address ?? '',
    Note: address ? '' : missing,
  });
  return [
    source('DefaultGateway', local.gateway, unknown ?? 'No default route in the routing table: not traced.'),
    source('DnsResolver', local.resolver, unknown ?? 'No nameserver in resolv.conf: not traced.'),
    source('ProviderEdge', undefined, ProviderEdgeNote),
    source('External1', externals[0], 'No external source 1 in Settings > General: not traced.'),
    source('External2', externals[1], 'No external source 2 in Settings > General: not traced.'),
  ];
}
