// Route gates of spec 1 section 2, as data plus one pure decision function.
import { LicenseMode, type Claim, type CurrentUser } from '../../../server/contract/account';

export interface Gate {
  /** Needs a current user (a signed-in user or a LiveShare visitor). */
  signedIn?: boolean;
  /** Needs every one of these claims. */
  claims?: Claim[];
  /**
   * Needs LicenseMode Professional. A LiveShare visitor passes: the server signs one in only
   * where its licence lets the link in (a Sidekick server lets in its Sidekick export links).
   */
  professional?: boolean;
  /** Closed to LiveShare visitors. */
  notLiveShare?: boolean;
  /** Where to send someone without a current user (default: /login with a return location). */
  signedOutTo?: string;
}

/** wait: authentication still loading; login: send to sign-in; deny: not-found page. */
export type GateDecision = 'allow' | 'wait' | 'login' | 'deny';

export const Open: Gate = {};
export const SignedIn: Gate = { signedIn: true };
export const needsClaim = (claim: Claim): Gate => ({ signedIn: true, claims: [claim] });

export function isOpen(gate: Gate): boolean {
  return !gate.signedIn && !gate.claims?.length && !gate.professional && !gate.notLiveShare;
}

export function decideGate(gate: Gate, auth: { loading: boolean; user: CurrentUser | null }): GateDecision {
  if (isOpen(gate)) return 'allow';
  if (auth.loading) return 'wait';
  const user = auth.user;
  if (!user) return 'login';
  if (gate.professional && user.LicenseMode !== LicenseMode.Professional && !user.IsLiveshare) return 'deny';
  if (gate.notLiveShare && user.IsLiveshare) return 'deny';
  if (gate.claims?.some((claim) => !hasClaim(user, claim))) return 'deny';
  return 'allow';
}

export function hasClaim(user: CurrentUser | null, claim: Claim): boolean {
  return !!user && user.Claims.includes(claim);
}

/**
 * A path with more than two segments starting with "liveshare" carries a LiveShare id: the
 * remainder after that first segment (spec 1 section 2). Returns undefined otherwise.
 */
export function liveShareIdFromPath(pathname: string): string | undefined {
  const segments = pathname.split('/').filter((s) => s !== '');
  if (segments.length > 2 && segments[0].toLowerCase() === 'liveshare') return segments.slice(1).join('/');
  return undefined;
}
