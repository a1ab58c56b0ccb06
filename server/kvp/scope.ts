// Which stored row a (Type, KeyName) of the caller addresses (spec 1 "Link scope kinds").
import { KvpKeyMaxLength, KvpScope, KvpScopeByName } from '../contract/summaries.js';
import type { Principal } from '../account/principal.js';
import { badRequest } from '../http/errors.js';
import type { KvpAddress } from './repository.js';

/** "Account", "User", "AccountAndUser" (any case) or 0, 1, 2. */
export function parseScope(type: string | number): KvpScope {
  const text = String(type).trim();
  if (/^[012]$/.test(text)) return Number(text) as KvpScope;
  const byName = Object.entries(KvpScopeByName).find(([name]) => name.toLowerCase() === text.toLowerCase());
  if (!byName) throw badRequest(`Type must be Account, User or AccountAndUser (0, 1 or 2), got "${text.slice(0, 32)}".`);
  return byName[1];
}

export function checkKeyName(keyName: string): string {
  const key = keyName.trim();
  if (!key) throw badRequest('KeyName is required.');
  if (key.length > KvpKeyMaxLength) throw badRequest(`KeyName has at most ${KvpKeyMaxLength} characters.`);
  return key;
}

export function addressOf(p: Principal, scope: KvpScope, key: string): KvpAddress {
  return { accountId: p.accountId, userId: scope === KvpScope.Account ? 0 : p.userId, scope, key };
}
