// The LiveShare id of a viewer link ("{shareId}/{password}", the path's remainder) is kept in
// the cookie liveshareid, which signs the browser in as a visitor on every request and hub
// connection, and in the browser-session key liveshareid (spec 1 section 2, spec 3 section 2.6).
import { liveShareIdFromPath } from '../shell/gates';

export const LiveShareCookie = 'liveshareid';

export function rememberLiveShareId(pathname: string): void {
  const id = liveShareIdFromPath(pathname);
  if (id === undefined) return;
  document.cookie = `${LiveShareCookie}=${encodeURIComponent(id)}; path=/; SameSite=Lax`;
  try {
    sessionStorage.setItem(LiveShareCookie, id);
  } catch {
    // Storage refused (private mode): the cookie is what signs the visitor in.
  }
}

export function forgetLiveShareId(): void {
  document.cookie = `${LiveShareCookie}=; path=/; SameSite=Lax; max-age=0`;
  try {
    sessionStorage.removeItem(LiveShareCookie);
  } catch {
    /* nothing stored */
  }
}

/** The stored id, if this browser opened a LiveShare link and did not cancel it. */
export function storedLiveShareId(): string | undefined {
  const match = document.cookie.split('; ').find((c) => c.startsWith(`${LiveShareCookie}=`));
  const value = match ? decodeURIComponent(match.slice(LiveShareCookie.length + 1)) : '';
  return value || undefined;
}

/** The viewer route of the stored link ("Back to summary"), or / without one. */
export function liveShareViewerPath(): string {
  const id = storedLiveShareId();
  return id ? `/LiveShare/${id}` : '/';
}
