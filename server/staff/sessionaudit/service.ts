// Session Audit (/staff/sessionaudit): sign-in sessions of every account, and revoking one.
// Revoking deletes the login session, so the user's next call answers 401; SignedOut closes
// the hub connections opened with it (server/mainhub/revocation.ts).
import type { SignInSession } from '../../contract/staff.js';
import type { DomainEventBus } from '../../events.js';
import type { Principal } from '../../account/principal.js';
import { conflict, notFound } from '../../http/errors.js';
import type { Store } from '../../store/db.js';
import { findSignIn, listSignIns, revokeSignIn, type SignInFilter } from './repository.js';

export interface SessionAuditDeps {
  store: Store;
  events: DomainEventBus;
}

export function listSignInSessions(deps: SessionAuditDeps, filter: SignInFilter): Promise<SignInSession[]> {
  return deps.store.read((q) => listSignIns(q, filter));
}

export async function revokeSignInSession(deps: SessionAuditDeps, staff: Principal, id: number): Promise<SignInSession> {
  const found = await deps.store.read((q) => findSignIn(q, id));
  if (!found) throw notFound(`Sign-in session ${id} not found.`);
  if (found.revoked) throw conflict(`Sign-in session ${id} was already revoked.`);
  const by = staff.impersonator?.username ?? staff.username;
  await deps.store.transaction((q) => revokeSignIn(q, id, found.tokenHash, by));
  deps.events.emit('SignedOut', found.tokenHash);
  const [row] = await deps.store.read((q) => listSignIns(q, { id, limit: 1 }));
  return row;
}
