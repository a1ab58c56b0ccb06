// The onboarding's calls (spec 1 section 7): its progress in the key-value store (Account
// scope: one progress per account) and Reset Onboarding. An agent's Get Help is in ../api/support.
import { get, request, withQuery } from '../api/http';
import { KvpKey } from '../../../server/contract/summaries';

const kvpQuery = (key: string) => ({ Type: 'Account', KeyName: key });

/** The stored V2 and V1 texts (null: nothing stored). */
export async function readProgress(): Promise<{ v2: string | null; v1: string | null }> {
  const v2 = await get<string | null>(withQuery('/api/kvp/get', kvpQuery(KvpKey.OnboardingProgressV2)));
  // V1 is read only when there is no V2 (legacy progress, stage 6 counts as dismissed).
  const v1 = v2 === null ? await get<string | null>(withQuery('/api/kvp/get', kvpQuery(KvpKey.OnboardingProgressV1))) : null;
  return { v2: v2 ?? null, v1: v1 ?? null };
}

export const saveProgress = (value: string) =>
  request<null>('PUT', withQuery('/api/kvp/set', kvpQuery(KvpKey.OnboardingProgressV2)), { json: { Value: value } });

/** GET /api/kvp: the server writes an empty object to the account's onboarding progress. */
export const resetOnboarding = () => get<null>('/api/kvp');
