// Key-value store (spec 1 section 7 "Key-value store"): one function per operation.
// Values are text (the console stores JSON text in them). Who may write what:
// - User and AccountAndUser scope: the user's own values, any signed-in user.
// - Account scope: shared by the whole account, so it needs UserManagement (the claim the
//   spec ties to "Set as account default..."), except the onboarding progress keys, which
//   whoever runs onboarding saves.
// - Reset onboarding is a Settings action: SettingsManagement.
import { Claim } from '../contract/account.js';
import { KvpKey, KvpScope, KvpValueMaxBytes } from '../contract/summaries.js';
import { requireClaim } from '../account/authenticate.js';
import type { Principal } from '../account/principal.js';
import { HttpError } from '../http/errors.js';
import type { Store } from '../store/db.js';
import { readValue, writeValue } from './repository.js';
import { addressOf, checkKeyName, parseScope } from './scope.js';
import { checkTraceHistoryValue, traceHistoryIn } from './trace-history.js';

export interface KvpDeps {
  store: Store;
}

const OnboardingKeys: readonly string[] = [KvpKey.OnboardingProgressV2, KvpKey.OnboardingProgressV1];

/**
 * GET /api/kvp/get?Type&KeyName: the stored text, or null when nothing is stored. The
 * user's TraceTargetHistory falls back to the account default, then the server default.
 */
export async function getKvp(deps: KvpDeps, p: Principal, args: { type: string | number; keyName: string }): Promise<string | null> {
  const scope = parseScope(args.type);
  const key = checkKeyName(args.keyName);
  return deps.store.read(async (q) => {
    const stored = await readValue(q, addressOf(p, scope, key));
    if (stored !== undefined) return stored;
    if (key === KvpKey.TraceTargetHistory && scope === KvpScope.AccountAndUser) return JSON.stringify(await traceHistoryIn(q, p));
    return null;
  });
}

/** PUT /api/kvp/set?Type&KeyName&Value. */
export async function setKvp(deps: KvpDeps, p: Principal, args: { type: string | number; keyName: string; value: string }): Promise<void> {
  const scope = parseScope(args.type);
  const key = checkKeyName(args.keyName);
  if (scope === KvpScope.Account && !OnboardingKeys.includes(key)) requireClaim(p, Claim.UserManagement);
  if (Buffer.byteLength(args.value, 'utf8') > KvpValueMaxBytes) {
    throw new HttpError(413, `A stored value has at most ${KvpValueMaxBytes} bytes.`);
  }
  if (key === KvpKey.TraceTargetHistory) checkTraceHistoryValue(args.value);
  await deps.store.exclusive((q) => writeValue(q, addressOf(p, scope, key), args.value));
}

/** GET /api/kvp: Reset Onboarding writes an empty object to the account's onboarding progress. */
export async function resetOnboarding(deps: KvpDeps, p: Principal): Promise<void> {
  requireClaim(p, Claim.SettingsManagement);
  await deps.store.exclusive((q) => writeValue(q, addressOf(p, KvpScope.Account, KvpKey.OnboardingProgressV2), '{}'));
}
