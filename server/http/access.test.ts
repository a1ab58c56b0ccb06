// refusalFor on an appliance-wide declaration (issue 39): self-hosted as any call with its
// claim; hosted, the provider's alone (root, or a user of the provider account, whose staff
// make it without the customer claim), whatever claims a customer's user holds.
import { describe, expect, it } from 'vitest';
import { AssignableClaims, Claim } from '../contract/account.js';
import { loadConfig } from '../config.js';
import type { Principal } from '../account/principal.js';
import { ApplianceRefusal, describeAccess, refusalFor, type Access } from './access.js';

const access: Access = { claim: Claim.SettingsManagement, appliance: true };
const selfHosted = loadConfig({});
const hosted = loadConfig({ HOPWATCH_DEPLOYMENT: '1' });

const user = (over: Partial<Principal>): Principal => ({ userId: 7, accountId: 3, username: 'u', isRoot: false, claims: [...AssignableClaims], ...over });
const customer = user({});
const staff = user({ accountId: 2, claims: [Claim.Staff, Claim.ImpersonateUser], provider: true });
const root = user({ accountId: 1, isRoot: true, provider: true });

const answer = (p: Principal, config = hosted) => {
  const r = refusalFor(access, p, config);
  return r ? `${r.status} ${r.message}` : 'allowed';
};

describe('an appliance-wide call', () => {
  it('self-hosted: needs its claim, as before', () => {
    expect(answer(customer, selfHosted)).toBe('allowed');
    expect(answer(user({ claims: [] }), selfHosted)).toBe('403 This needs the SettingsManagement permission.');
    // Staff hold no customer claim; self-hosted their Staff claim stands for nothing.
    expect(answer(staff, selfHosted)).toBe('403 This needs the SettingsManagement permission.');
  });

  it("hosted: refused to a customer's user whatever claims it holds, with words a customer understands", () => {
    expect(answer(customer)).toBe(`403 ${ApplianceRefusal}`);
    expect(ApplianceRefusal).toMatch(/^This needs the provider/);
    // Impersonated by staff, the principal is the customer's: still refused.
    expect(answer(user({ claims: [...AssignableClaims, Claim.IsImpersonating], impersonator: { userId: 9, username: 'ops' } }))).toBe(`403 ${ApplianceRefusal}`);
  });

  it('hosted: the provider makes it (root; staff without the customer claim), other provider users need the claim', () => {
    expect(answer(root)).toBe('allowed');
    expect(answer(staff)).toBe('allowed');
    expect(answer(user({ accountId: 2, claims: [], provider: true }))).toBe('403 This needs the SettingsManagement permission.');
  });

  it('leaves every other declaration as it was', () => {
    expect(refusalFor({ claim: Claim.SettingsManagement }, customer, hosted)).toBeUndefined();
    expect(describeAccess(access)).toBe('SettingsManagement, appliance-wide: in the hosted flavour only the provider (staff, root)');
  });
});
