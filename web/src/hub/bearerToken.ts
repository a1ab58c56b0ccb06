// The cloud console's hub bearer token (spec 3 section 7.5): read once per sign-in from
// GET /api/Account/HubToken and handed to the hub connection; forgotten on sign-out or when
// the hub refuses it. A LiveShare visitor has none and connects by its cookie ('').
import type { HubToken } from '../../../server/contract/accounts';
import { get } from '../api/http';
import { store } from '../state/store';
import { currentUserAtom } from '../state/user';

let cached: string | undefined;

export async function hubBearerToken(): Promise<string | undefined> {
  const user = store.get(currentUserAtom);
  if (!user) return undefined;
  if (user.IsLiveshare) return '';
  if (cached) return cached;
  try {
    cached = (await get<HubToken>('/api/Account/HubToken', { authRedirect: false }))?.Token || undefined;
  } catch {
    cached = undefined;
  }
  return cached;
}

export function forgetHubBearerToken(): void {
  cached = undefined;
}
