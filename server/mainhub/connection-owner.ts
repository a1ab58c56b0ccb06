// Whose a /mainHub connection is (the hub plugin's ownerKey): the login session that
// negotiated it, or the LiveShare link a visitor came in by. A connection token read by
// someone else (a log, a proxy, a shared screen) is then useless to them: a request for it
// from another session, another user of the same account, or another link finds no
// connection (404). An impersonation keeps its session, so its connections stay its own.
import type { Principal } from '../account/principal.js';

export function connectionOwner(p: Principal): string {
  if (p.liveShare) return `liveshare:${p.liveShare.linkId}`;
  // Every signed-in principal the hub authenticates carries its session (cookie or bearer
  // token); one without would share a key with every other such principal, so none is made.
  if (!p.loginSession) throw new Error('A /mainHub principal without a login session has no connection owner.');
  return `session:${p.loginSession}`;
}
