// The LiveShare id of a viewer link is kept in the cookie liveshareid (spec 1 section 2).
import { liveShareIdFromPath } from '../shell/gates';

export const LiveShareCookie = 'liveshareid';

export function rememberLiveShareId(pathname: string): void {
  const id = liveShareIdFromPath(pathname);
  if (id !== undefined) document.cookie = `${LiveShareCookie}=${encodeURIComponent(id)}; path=/; SameSite=Lax`;
}

export function forgetLiveShareId(): void {
  document.cookie = `${LiveShareCookie}=; path=/; SameSite=Lax; max-age=0`;
}
