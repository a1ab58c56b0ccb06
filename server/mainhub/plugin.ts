// Mounts /mainHub: the console's live connection (spec 3 section 7.5).
import type { FastifyInstance } from 'fastify';
import { hubPlugin } from '../hub/index.js';
import { bearerTokenFrom, sessionTokenFrom, trialExpired } from '../account/authenticate.js';
import { DeploymentMode } from '../contract/account.js';
import type { TargetDeps } from '../targets/service.js';
import type { DataService } from '../data/service.js';
import { CurrentPrincipals } from '../account/current-principals.js';
import { crossSiteRefusal } from '../http/cross-site.js';
import { createMainHub } from './methods.js';
import { mustReplacePassword } from '../account/principal.js';
import { temporaryPasswordRefusal } from '../http/access.js';
import { auditImpersonatedHubCalls } from '../impersonation/hub-audit.js';
import { closeEndedVisits, closeRevokedConnections } from './revocation.js';
import { bridgeEvents } from './event-bridge.js';
import { connectionOwner } from './connection-owner.js';
import { followVisitorScopes } from './visitor-groups.js';
import type { PathViewDeps } from '../path-view/service.js';
import { redisHubBackplane } from '../cluster/hub-backplane.js';

export default async function mainHubPlugin(app: FastifyInstance, opts: { targets: TargetDeps; data: DataService; pathView?: PathViewDeps }) {
  // Created before the revocation listener: its cache forgets a change before the
  // listener reads who the user is now.
  const principals = new CurrentPrincipals(app.store, app.config, app.events);
  const hub = createMainHub({
    store: app.store,
    config: app.config,
    events: app.events,
    targets: opts.targets,
    data: opts.data,
    pathView: opts.pathView,
    agents: app.agents,
    // Who the session is now, with the address its connection came from (for the audit).
    currentPrincipal: async (p) => {
      if (p.liveShare) return app.liveShareVisitors.current(p);
      const now = await principals.of(p.loginSession);
      return now && { ...now, address: p.address };
    },
  });
  // One replica of several: events reach the consoles connected to every replica.
  if (app.cluster) hub.useBackplane(redisHubBackplane(app.cluster, '/mainHub'));
  // State-changing methods invoked while impersonating go to the impersonation audit.
  auditImpersonatedHubCalls(hub.definition.methods, app.store, app.log);
  const unbridge = bridgeEvents(app.events, hub, app.store);
  const unrevoke = closeRevokedConnections(app.events, hub, principals);
  const unvisit = closeEndedVisits(app.events, hub);
  // A visitor's per-target groups follow what its link shares now.
  const unfollow = followVisitorScopes(hub, app.liveShareVisitors);
  app.addHook('onClose', async () => {
    unfollow();
    unbridge();
    unrevoke();
    unvisit();
    principals.close();
  });
  await app.register(hubPlugin, {
    path: '/mainHub',
    hub,
    // The hub authenticates its own requests (cookie, or a bearer token in the cloud
    // flavour) and checks each method's declared access on every invocation.
    routeConfig: { access: 'hubConnection' },
    // Requests another web site made (a WebSocket opened by a page elsewhere carries the
    // user's cookie) are refused as the REST calls are.
    refuseRequest: (req) => crossSiteRefusal(req.headers),
    // A connection answers only the session (or LiveShare link) that negotiated it.
    ownerKey: connectionOwner,
    // The console's session cookie, and in cloud mode a bearer token too; an expired trial
    // counts as not signed in here as well. Through the session cache: negotiate and upgrade
    // of thousands of consoles are a few sessions (docs/hub.md, "5,000 consoles").
    authenticate: async (req) => {
      if (trialExpired(app.config)) return null;
      const byCookie = await principals.ofToken(sessionTokenFrom(req.headers.cookie));
      const found = byCookie || app.config.deployment !== DeploymentMode.Cloud ? byCookie : await principals.ofToken(bearerTokenFrom(req.headers, req.url));
      if (found) {
        // No live connection (nor the account's pushed data) before a temporary password is replaced.
        if (mustReplacePassword(found)) throw temporaryPasswordRefusal();
        return { ...found, address: req.socket.remoteAddress ?? '' };
      }
      // A LiveShare visitor watches its link's targets live (server/liveshare/visitors.ts).
      const visitor = await app.liveShareVisitors.fromCookie(req.headers.cookie, req.socket.remoteAddress ?? '');
      return visitor && 'principal' in visitor ? visitor.principal : null;
    },
  });
}
