// The sessions list asked for as the console starts, when it starts on /sessions: the
// request (the server's read of 10,000 sessions and 4.9 MB of JSON) then runs beside the
// console's own start-up (its script, the appliance facts and the user, the layout) instead
// of after it, and the page takes the answer when it mounts. Taken once; a failed or old
// preload is not used (the page asks again, with the usual sign-in handling).
import type { Session } from '../../../server/contract/sessions';
import { get } from '../api/http';

/** An answer older than this is asked for again (the hub's SessionsChanged reloads anyway once connected). */
const FreshMs = 15_000;

let early: { list: Promise<Session[] | null>; at: number } | null = null;

/** Starts the list's request if the console opens on the sessions page (main.tsx). */
export function preloadSessions(pathname: string): void {
  if (pathname.replace(/\/+$/, '') !== '/sessions') return;
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
