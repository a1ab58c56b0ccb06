// The sessions list asked for as the console starts, when it starts on /sessions: the
// request (the server's read of 10,000 sessions and 4.9 MB of JSON) then runs beside the
// console's own start-up (its script, the appliance facts and the user, the layout) instead
// of after it, and the page takes the answer when it mounts. Taken once; a failed or old
// preload is not used (the page asks again, with the usual sign-in handling). The user is not
// known yet at that point: the preload is made only when the browser's last signed-in user
// could read the list (SessionManagement, remembered as each user loads), so a user without
// the claim who opens /sessions draws no 403 (issue 41 item 14: ask only for what the user
// may read).
import type { Session } from '../../../server/contract/sessions';
import { Claim } from '../../../server/contract/account';
import { get } from '../api/http';

/** An answer older than this is asked for again (the hub's SessionsChanged reloads anyway once connected). */
const FreshMs = 15_000;

let early: { list: Promise<Session[] | null>; at: number } | null = null;

/** localStorage: "true" when the browser's last signed-in user held SessionManagement. */
export const SessionsReadableKey = 'Hopwatch-Sessions-Readable';

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'>;
const browserStorage = (): Storage | undefined => (typeof localStorage === 'undefined' ? undefined : localStorage);

/** Kept as each user loads (state/session.ts): whether the next start may preload the list. */
export function rememberSessionsReadable(claims: readonly string[] | undefined, storage: Storage | undefined = browserStorage()): void {
  storage?.setItem(SessionsReadableKey, String(claims?.includes(Claim.SessionManagement) === true));
}

/** Starts the list's request if the console opens on the sessions page (main.tsx) for a user who may read it. */
export function preloadSessions(pathname: string, storage: Storage | undefined = browserStorage()): void {
  if (pathname.replace(/\/+$/, '') !== '/sessions') return;
  if (storage?.getItem(SessionsReadableKey) !== 'true') return;
  const list = get<Session[]>('/api/Sessions', { authRedirect: false });
  list.catch(() => undefined); // not signed in, no claim: the page's own request says so
  early = { list, at: Date.now() };
}

/** The preloaded request, once, if fresh; else null. */
export function takePreloadedSessions(): Promise<Session[] | null> | null {
  const e = early;
  early = null;
  return e && Date.now() - e.at < FreshMs ? e.list : null;
}
