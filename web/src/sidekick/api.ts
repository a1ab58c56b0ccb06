// The Sidekick calls of spec 3 section 7.2 through the console's fetch wrapper (204 gives null).
import type { SidekickPlannedSource, SidekickShareUrl, SidekickState } from '../../../server/contract/sidekick';
import { get, withQuery } from '../api/http';

export const sidekickState = () => get<SidekickState>('/api/Sidekick/SidekickState');
/** Without an agent: the Local Machine. */
export const startDiscovery = (agentId?: number) => get<null>(withQuery('/api/Sidekick/StartDiscovery', { agentId }));
export const shareUrlsForSidekickTargets = () => get<SidekickShareUrl[]>('/api/Sidekick/GetShareUrlsForSidekickTargets');
/** What Get Started will trace on the agent (without one: the Local Machine, or the previous discovery's). */
export const plannedSources = (agentId?: number) => get<SidekickPlannedSource[]>(withQuery('/api/Sidekick/PlannedSources', { agentId }));
