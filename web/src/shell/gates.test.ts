import { describe, expect, it } from 'vitest';
import { Claim, LicenseMode, type CurrentUser } from '../../../server/contract/account';
import { Open, SignedIn, decideGate, liveShareIdFromPath, needsClaim, type Gate } from './gates';

const user = (over: Partial<CurrentUser> = {}): CurrentUser => ({
  Username: 'ann',
  Message: '',
  IsLiveshare: false,
  IsUser: true,
  IsRoot: false,
  LicenseMode: LicenseMode.Professional,
  Claims: [],
  Flags: [],
  ...over,
});
const signedIn = (u: CurrentUser) => ({ loading: false, user: u });
const guest = { loading: false, user: null };
const SummaryGate: Gate = { signedIn: true, professional: true, notLiveShare: true };

describe('route gates', () => {
  it('lets anyone through an open gate, even while loading', () => {
    expect(decideGate(Open, { loading: true, user: null })).toBe('allow');
    expect(decideGate(Open, guest)).toBe('allow');
  });

  it('waits for authentication before deciding a closed gate', () => {
    expect(decideGate(SignedIn, { loading: true, user: null })).toBe('wait');
  });

  it('sends guests to sign in', () => {
    expect(decideGate(SignedIn, guest)).toBe('login');
    expect(decideGate(needsClaim(Claim.SessionManagement), guest)).toBe('login');
  });

  it('needs the claim for claim-gated screens', () => {
    const gate = needsClaim(Claim.UserManagement);
    expect(decideGate(gate, signedIn(user()))).toBe('deny');
    expect(decideGate(gate, signedIn(user({ Claims: [Claim.UserManagement] })))).toBe('allow');
    expect(decideGate(gate, signedIn(user({ Claims: ['usermanagement'] })))).toBe('deny');
  });

  it('needs the Professional licence and a non-LiveShare user for summaries', () => {
    expect(decideGate(SummaryGate, signedIn(user()))).toBe('allow');
    expect(decideGate(SummaryGate, signedIn(user({ LicenseMode: LicenseMode.Standard })))).toBe('deny');
    expect(decideGate(SummaryGate, signedIn(user({ LicenseMode: LicenseMode.Free })))).toBe('deny');
    expect(decideGate(SummaryGate, signedIn(user({ IsLiveshare: true, IsUser: false })))).toBe('deny');
  });

  it('lets a LiveShare visitor through a signed-in gate', () => {
    expect(decideGate(SignedIn, signedIn(user({ IsLiveshare: true, IsUser: false })))).toBe('allow');
  });

  it('combines licence and claim for LiveShare link management', () => {
    const gate: Gate = { signedIn: true, professional: true, claims: [Claim.SummaryManagement] };
    expect(decideGate(gate, signedIn(user({ Claims: [Claim.SummaryManagement] })))).toBe('allow');
    expect(decideGate(gate, signedIn(user()))).toBe('deny');
    expect(decideGate(gate, signedIn(user({ Claims: [Claim.SummaryManagement], LicenseMode: LicenseMode.Sidekick })))).toBe('deny');
  });

  it('lets a LiveShare visitor through the viewer gate on a Sidekick server (the server let its link in)', () => {
    const viewer: Gate = { signedIn: true, professional: true, signedOutTo: '/InvalidLiveshare' };
    const sidekickVisitor = user({ IsLiveshare: true, IsUser: false, LicenseMode: LicenseMode.Sidekick });
    expect(decideGate(viewer, signedIn(sidekickVisitor))).toBe('allow');
    // Users of a Sidekick server still have no viewer, summaries or link management.
    expect(decideGate(viewer, signedIn(user({ LicenseMode: LicenseMode.Sidekick })))).toBe('deny');
    expect(decideGate(SummaryGate, signedIn(sidekickVisitor))).toBe('deny');
    expect(decideGate({ signedIn: true, professional: true, claims: [Claim.SummaryManagement] }, signedIn(sidekickVisitor))).toBe('deny');
  });

  it('takes the LiveShare id from paths of more than two segments starting with liveshare', () => {
    expect(liveShareIdFromPath('/LiveShare/abc/pw1')).toBe('abc/pw1');
    expect(liveShareIdFromPath('/liveshare/abc/pw1/extra')).toBe('abc/pw1/extra');
    expect(liveShareIdFromPath('/LiveShare/abc')).toBeUndefined();
    expect(liveShareIdFromPath('/LiveShareLinks/a/b')).toBeUndefined();
    expect(liveShareIdFromPath('/targets/5')).toBeUndefined();
  });
});
