// The subscription page's call (server/accounts/plugin.ts).
import type { Subscription } from '../../../server/contract/accounts';
import { get } from '../api/http';

export const getSubscription = () => get<Subscription>('/api/subscription');
