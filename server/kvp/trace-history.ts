// TraceTargetHistory (spec 2 section 7): the target entry's history dropdown. Stored as a
// JSON array of strings under the key TraceTargetHistory, per account and user; when a
// user has none, the account default (Account scope) applies, then the server default.
import {
  KvpKey,
  KvpScope,
  TraceHistoryEntryMaxLength,
  TraceHistoryMaxEntries,
} from '../contract/summaries.js';
import type { Principal } from '../account/principal.js';
import { badRequest } from '../http/errors.js';
import type { Queryable, Store } from '../store/db.js';
import { readValue, writeValue } from './repository.js';
import { addressOf } from './scope.js';

/**
 * Suggestions shown before a user has traced anything: well-known public hosts people use
 * to check their path to the internet. Only dropdown entries; nothing is traced until the
 * user picks one.
 */
export const ServerDefaultTraceHistory: readonly string[] = [
  'google.com',
  'cloudflare.com',
  'microsoft.com',
  'amazon.com',
  '1.1.1.1',
  '8.8.8.8',
];

/** Checks a value written to TraceTargetHistory: a JSON array of target names. */
export function checkTraceHistoryValue(value: string): void {
  let list: unknown;
  try {
    list = JSON.parse(value);
  } catch {
    throw badRequest('TraceTargetHistory must be a JSON array of target names.');
  }
  if (!Array.isArray(list) || !list.every((t) => typeof t === 'string')) {
    throw badRequest('TraceTargetHistory must be a JSON array of target names.');
  }
  if (list.length > TraceHistoryMaxEntries) throw badRequest(`TraceTargetHistory has at most ${TraceHistoryMaxEntries} entries.`);
  if (list.some((t: string) => t.length > TraceHistoryEntryMaxLength)) {
    throw badRequest(`A TraceTargetHistory entry has at most ${TraceHistoryEntryMaxLength} characters.`);
  }
}

/** A stored list, or undefined when none is stored (or it is unreadable). */
function parseStored(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  try {
    const list: unknown = JSON.parse(value);
    return Array.isArray(list) ? list.filter((t): t is string => typeof t === 'string') : undefined;
  } catch {
    return undefined;
  }
}

/** The account default, else the server default. */
export async function defaultTraceHistoryIn(q: Queryable, p: Principal): Promise<string[]> {
  const account = parseStored(await readValue(q, addressOf(p, KvpScope.Account, KvpKey.TraceTargetHistory)));
  return account ?? [...ServerDefaultTraceHistory];
}

/** The user's own history, else the default. */
export async function traceHistoryIn(q: Queryable, p: Principal): Promise<string[]> {
  const own = parseStored(await readValue(q, addressOf(p, KvpScope.AccountAndUser, KvpKey.TraceTargetHistory)));
  return own ?? defaultTraceHistoryIn(q, p);
}

/** GET /api/data/GetDefaultTraceHistory. */
export function getDefaultTraceHistory(store: Store, p: Principal): Promise<string[]> {
  return store.read((q) => defaultTraceHistoryIn(q, p));
}

/** The history the user sees in the dropdown. */
export function getTraceHistory(store: Store, p: Principal): Promise<string[]> {
  return store.read((q) => traceHistoryIn(q, p));
}

/**
 * Moves a target the user just traced to the front of their history (case-insensitive
 * duplicates dropped, at most TraceHistoryMaxEntries kept). A user without a history of
 * their own starts from the default list they were shown. Blank or over-long names are
 * not recorded. Returns the history now stored.
 */
export function recordTraceTarget(store: Store, p: Principal, target: string): Promise<string[]> {
  const name = target.trim();
  return store.transaction(async (q) => {
    const current = await traceHistoryIn(q, p);
    if (!name || name.length > TraceHistoryEntryMaxLength) return current;
    const next = [name, ...current.filter((t) => t.toLowerCase() !== name.toLowerCase())].slice(0, TraceHistoryMaxEntries);
    await writeValue(q, addressOf(p, KvpScope.AccountAndUser, KvpKey.TraceTargetHistory), JSON.stringify(next));
    return next;
  });
}
