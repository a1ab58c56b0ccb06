// The Agents page's calls (spec 1 section 7), with the spec's client guards (section 5):
// deleteAgent needs shouldUninstall, download-link needs agentId. Names are sent URL-encoded.
import { get, withQuery } from '../api/http';
import type { Agent, AgentDownloadLink, AgentTarget, Entitlement } from '../../../server/contract/agents';
import type { GraphRowsResult } from '../../../server/contract/targets';
import type { AgentRowSource } from './logic/agentRows';

function need(name: string, value: unknown): void {
  if (value === undefined || value === null || value === '') throw new Error(`${name} is required.`);
}

export const getAgents = () => get<AgentRowSource[]>('/cmd/getAgentsListWithDetails');
export const getEntitlement = () => get<Entitlement>('/cmd/cloudconnect-entitlement');
export const createAgent = (name: string) => get<Agent>(withQuery('/cmd/createAgent', { name: encodeURIComponent(name) }));
export function deleteAgent(sentinelId: number, shouldUninstall: boolean) {
  need('shouldUninstall', shouldUninstall);
  return get<null>(withQuery('/cmd/deleteAgent', { sentinelId, shouldUninstall }));
}
export const forceReconnect = (sentinelId: number) => get<null>(withQuery('/cmd/forceReconnect', { sentinelId }));
/** The agent's links; `renew` makes a new setup key (the link copied before stops working). */
export function downloadLink(agentId: number, renew = false) {
  need('agentId', agentId);
  return get<AgentDownloadLink>(`/cmd/download-link/${encodeURIComponent(agentId)}${renew ? '?renew=true' : ''}`);
}
export const updateSentinelName = (agentId: number, newName: string) =>
  get<Agent>(withQuery('/cmd/updateSentinelName', { agentId, newName: encodeURIComponent(newName) }));
export const agentTargets = (agentId: number) => get<AgentTarget[]>(withQuery('/cmd/agentTargets', { agentId }));
/** One row per open target of the agent (its final hop over the last 10 minutes): the Avg. column. */
export const agentTargetRows = (agentId: number, signal?: AbortSignal) =>
  get<GraphRowsResult>(withQuery('/api/data/TraceGraphRows', { listType: 'Agent', uniqueID: agentId, 'requests[0].ID': agentId }), { signal });
export const stopTrace = (id: number) => get<null>(withQuery('/cmd/stoptrace', { ID: id }));
