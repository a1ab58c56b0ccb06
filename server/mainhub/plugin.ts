// Mounts /mainHub: the console's live connection (spec 3 section 7.5).
import type { FastifyInstance } from 'fastify';
import { hubPlugin } from '../hub/index.js';
import { bearerTokenFrom, principalFromCookie, principalFromToken, trialExpired } from '../account/authenticate.js';
import { DeploymentMode } from '../contract/account.js';
import type { TargetDeps } from '../targets/service.js';
import { createMainHub } from './methods.js';
import { bridgeEvents } from './event-bridge.js';

export default async function mainHubPlugin(app: FastifyInstance, opts: { targets: TargetDeps }) {
  const hub = createMainHub({ store: app.store, config: app.config, events: app.events, targets: opts.targets });
  const unbridge = bridgeEvents(app.events, hub, app.store);
  app.addHook('onClose', async () => unbridge());
  await app.register(hubPlugin, {
    path: '/mainHub',
    hub,
    // The console's session cookie, and in cloud mode a bearer token too; an expired trial
    // counts as not signed in here as well.
    authenticate: async (req) => {
      if (trialExpired(app.config)) return null;
      const byCookie = await principalFromCookie(app.store, req.headers.cookie);
      if (byCookie || app.config.deployment !== DeploymentMode.Cloud) return byCookie ?? null;
      return (await principalFromToken(app.store, bearerTokenFrom(req.headers, req.url))) ?? null;
    },
  });
}
