// Pure wording of the staff pages (unit-tested beside).
import type { PingServer, UserEvent } from '../../../../server/contract/staff';

/** "Chrome 131 on Windows" from a user agent; the raw text when nothing is recognised. */
export function userAgentSummary(ua: string): string {
  if (!ua) return 'unknown';
  const os = /Windows/.test(ua) ? 'Windows' : /Android/.test(ua) ? 'Android' : /iPhone|iPad/.test(ua) ? 'iOS' : /Mac OS X/.test(ua) ? 'macOS' : /Linux/.test(ua) ? 'Linux' : '';
  const browsers: [string, RegExp][] = [
    ['Edge', /Edg\/(\d+)/],
    ['Opera', /OPR\/(\d+)/],
    ['Firefox', /Firefox\/(\d+)/],
    ['Chrome', /(?:Chrome|Chromium|HeadlessChrome)\/(\d+)/],
    ['Safari', /Version\/(\d+).*Safari/],
  ];
  for (const [name, re] of browsers) {
    const m = re.exec(ua);
    if (m) return `${name} ${m[1]}${os ? ` on ${os}` : ''}`;
  }
  return ua.length > 60 ? `${ua.slice(0, 57)}...` : ua;
}

const KindText: Record<UserEvent['Kind'], string> = {
  SignIn: 'Signed in',
  SignInFailed: 'Sign-in failed',
  Change: 'Change',
  Error: 'Error',
};

export const eventKindText = (e: Pick<UserEvent, 'Kind'>) => KindText[e.Kind] ?? e.Kind;

/** Insights feedback ratings (spec 3: Unknown 0 ... ThumbsUp 6). */
const Ratings = ['Unknown', 'Very confusing', 'Somewhat confusing', 'OK', 'Somewhat useful', 'Very useful', 'Thumbs up'];
export const ratingText = (rating: number) => Ratings[rating] ?? String(rating);

/** "never", "12 s ago", "5 min ago", "3 h ago", "2 d ago". */
export function agoText(iso: string | null, now = Date.now()): string {
  if (!iso) return 'never';
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}

/** Health of an engine as a word: a connected agent silent for 5 minutes is stale. */
export function healthText(p: Pick<PingServer, 'Connected' | 'LastSeen' | 'Id'>, now = Date.now()): 'Online' | 'Stale' | 'Offline' {
  if (!p.Connected) return 'Offline';
  if (p.Id !== -1 && p.LastSeen && now - Date.parse(p.LastSeen) > 5 * 60_000) return 'Stale';
  return 'Online';
}

export const localTime = (iso: string) => new Date(iso).toLocaleString();
