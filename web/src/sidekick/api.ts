// The Sidekick calls of spec 3 section 7.2 through the console's fetch wrapper (204 gives null).
import type { SidekickShareUrl, SidekickState } from '../../../server/contract/sidekick';
import { get } from '../api/http';

export const sidekickState = () => get<SidekickState>('/api/Sidekick/SidekickState');
export const startDiscovery = () => get<null>('/api/Sidekick/StartDiscovery');
export const shareUrlsForSidekickTargets = () => get<SidekickShareUrl[]>('/api/Sidekick/GetShareUrlsForSidekickTargets');
