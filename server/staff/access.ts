// Who may call the staff area's routes: the Staff claim, held only by provider personnel
// (spec 1 section 6). The access model has no deployment condition, so the calls answer
// in either mode; a self-hosted appliance simply has no staff users (docs/staff.md).
import { Claim } from '../contract/account.js';
import type { Access } from '../http/access.js';

export const StaffAccess: Access = { claim: Claim.Staff };

/** Rows a list answers at most (the pages ask for fewer). */
export const MaxStaffRows = 500;
