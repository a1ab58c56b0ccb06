// Agent calls of spec 1 section 7 (/cmd/...), the agent program's enrolment, and the agent
// link (/agentLink). The hub's agent methods call the same service functions.
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Claim } from '../contract/account.js';
import { AgentBundleArchs, agentBundlePath, AgentInstallerScriptPath, type AgentBundleArch } from '../contract/agents.js';
import { notFound } from '../http/errors.js';
import { requireUser } from '../account/authenticate.js';
import type { IngestPipeline } from '../ingest/pipeline.js';
import type { TraceRunner } from '../targets/trace-runner.js';
import { AgentEnrolPath, AgentLinkPath } from '../../agent/protocol.js';
import { PasswordSeal } from '../liveshare/secrets.js';
import { AgentLinks } from './link.js';
import { givenUp, takeOverAgent } from './takeover.js';
import { PgLeadership } from '../cluster/leadership.js';
import { RedisLinkPeers } from '../cluster/agent-peers.js';
import { agentSettings } from './settings.js';
import { localMachineDetails, thisMachine } from './local-machine-info.js';
import * as agents from './service.js';
import { installerScript } from './installer.js';
import { AgentBundleFiles } from './bundle-files.js';
import { agentIdArg, agentKeyArg, AgentListSchema, agentNameArg, AgentSchema, DownloadLinkSchema, EnrolAnswerSchema, EntitlementSchema, AgentTargetListSchema } from './schemas.js';

declare module 'fastify' {
  interface FastifyInstance {
    agents: agents.AgentDeps;
  }
}

/** The address the caller used to reach this server (links the console builds use it). */
export function serverUrlOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** Why a bundle is not served: arm64 is left out where the build had no cross compiler (agent/bundle/build.sh). */
function notBuiltText(arch: AgentBundleArch): string {
  return arch === 'x64'
    ? 'The agent installer is not built on this server (npm run build:agent-bundle).'
    : `The Linux ${arch} agent is not built on this server: its build needs the cross compiler (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross), then npm run build:agent-bundle.`;
}

const query = (required: string[], properties: Record<string, object>) => ({ type: 'object', required, properties });

export default async function agentsPlugin(app: FastifyInstance, opts: { runner: TraceRunner; ingest: IngestPipeline; version: string }) {
  // Several replicas on one PostgreSQL: a link that comes here takes its agent's sessions over (takeover.ts).
  const fence = app.leadership instanceof PgLeadership ? app.leadership : undefined;
  const takeOver =
    app.store.dialect === 'postgres'
      ? (agentId: number) => takeOverAgent({ store: app.store, runner: opts.runner, ingest: opts.ingest, links, fence, warn: (o, m) => app.log.warn(o, m) }, agentId)
      : undefined;
  const links: AgentLinks = new AgentLinks({ store: app.store, ingest: opts.ingest, events: app.events, log: app.log, takeOver, givenUp: (agentId) => givenUp({ fence }, agentId) });
  // One replica of several: commands reach the agent wherever it is linked; presence is shared.
  if (app.cluster) links.usePeers(new RedisLinkPeers(app.cluster, app.config.presenceTtlMs, app.log));
  // The setup keys kept for showing Auto Setup links again are sealed under their own key (server/agents/setup-keys.ts; a file, or a row on PostgreSQL).
  const seal = PasswordSeal.forStore(app.store, 'agent-setup.key');
  // The Local Machine is this server: connected since now, with its version and OS.
  const localMachine = localMachineDetails({ version: opts.version, startedAt: Date.now() }, thisMachine());
  const deps: agents.AgentDeps = { store: app.store, events: app.events, config: app.config, settings: agentSettings(), links, runner: opts.runner, seal, localMachine };
  app.decorate('agents', deps);
  opts.runner.agent.attach(links);
  links.mount(app, AgentLinkPath);

  // Who may call each route (server/http/access.ts): the list as any signed-in user (the
  // target window's Agent picker), the rest of the agent calls with CloudConnectManagement.
  const manage = { claim: Claim.CloudConnectManagement };
  const list = { config: { changesState: false, access: 'signedIn' as const }, schema: { response: { 200: AgentListSchema } } };
  app.get('/cmd/getagentlist', list, async (request) => agents.getAgents(deps, requireUser(request)));
  app.get('/cmd/getAgentsListWithDetails', list, async (request) => agents.getAgents(deps, requireUser(request)));

  app.get('/cmd/cloudconnect-entitlement', { config: { changesState: false, access: manage }, schema: { response: { 200: EntitlementSchema } } }, async (request) =>
    agents.getEntitlement(deps, requireUser(request)),
  );

  app.get<{ Querystring: { name: string } }>(
    '/cmd/createAgent',
    { config: { changesState: true, access: manage }, schema: { querystring: query(['name'], { name: agentNameArg }), response: { 200: AgentSchema } } },
    async (request) => agents.createAgent(deps, requireUser(request), request.query.name),
  );

  app.get<{ Querystring: { sentinelId: number; shouldUninstall: boolean } }>(
    '/cmd/deleteAgent',
    { config: { changesState: true, access: manage }, schema: { querystring: query(['sentinelId', 'shouldUninstall'], { sentinelId: agentIdArg, shouldUninstall: { type: 'boolean' } }) } },
    async (request, reply) => {
      await agents.deleteAgent(deps, requireUser(request), request.query.sentinelId, request.query.shouldUninstall);
      return reply.code(204).send();
    },
  );

  app.get<{ Querystring: { sentinelId: number } }>(
    '/cmd/forceReconnect',
    { config: { changesState: true, access: manage }, schema: { querystring: query(['sentinelId'], { sentinelId: agentIdArg }) } },
    async (request, reply) => {
      await agents.forceReconnect(deps, requireUser(request), request.query.sentinelId);
      return reply.code(204).send();
    },
  );

  // May make a setup key (the first, after one was used, or with renew=true: a New Setup Link):
  // a change of state, refused when another site asks.
  app.get<{ Params: { agentId: number }; Querystring: { renew?: boolean } }>(
    '/cmd/download-link/:agentId',
    {
      config: { changesState: true, access: manage },
      schema: {
        params: query(['agentId'], { agentId: agentIdArg }),
        querystring: { type: 'object', additionalProperties: false, properties: { renew: { type: 'boolean' } } },
        response: { 200: DownloadLinkSchema },
      },
    },
    async (request) => agents.downloadLink(deps, requireUser(request), request.params.agentId, serverUrlOf(request), request.query.renew === true),
  );

  app.get<{ Querystring: { agentId: number; newName: string } }>(
    '/cmd/updateSentinelName',
    { config: { changesState: true, access: manage }, schema: { querystring: query(['agentId', 'newName'], { agentId: agentIdArg, newName: agentNameArg }), response: { 200: AgentSchema } } },
    async (request) => agents.updateAgentName(deps, requireUser(request), request.query.agentId, request.query.newName),
  );

  // The agent detail panel's TARGETS list (a decision where spec 1 names no call; docs/agents.md).
  app.get<{ Querystring: { agentId: number } }>(
    '/cmd/agentTargets',
    {
      config: { changesState: false, access: manage },
      schema: { querystring: query(['agentId'], { agentId: { type: 'integer', minimum: -1, maximum: 2147483647 } }), response: { 200: AgentTargetListSchema } },
    },
    async (request) => agents.agentTargets(deps, requireUser(request), request.query.agentId),
  );

  // The installer bundles (agent/bundle/build.sh), one per CPU, and the self-served installer
  // that picks one by `uname -m`. Public: they hold no secret, and agent machines fetch them
  // without a console session (curl -O).
  const built = (file: string) => fileURLToPath(new URL(`../../agent-bundle/${file}`, import.meta.url));
  const bundles = new AgentBundleFiles(built(''), join(deps.config.dataDir, 'agent-bundles'));
  for (const arch of AgentBundleArchs) {
    const path = agentBundlePath(arch);
    const file = path.split('/').pop()!;
    app.get(
      path,
      { config: { changesState: false, access: 'public' }, schema: { response: { 200: { type: 'string', format: 'binary' } } } },
      async (_request, reply) => {
        const bundle = await bundles.path(file);
        if (!bundle) throw notFound(notBuiltText(arch));
        reply
          .type('application/gzip')
          .header('content-length', statSync(bundle).size)
          .header('content-disposition', `attachment; filename="${file}"`);
        return reply.send(createReadStream(bundle));
      },
    );
  }
  app.get(
    AgentInstallerScriptPath,
    { config: { changesState: false, access: 'public' }, schema: { response: { 200: { type: 'string' } } } },
    async (request, reply) => {
      const script = built('hopwatch-agent-install.sh');
      if (!existsSync(script)) throw notFound('The agent installer is not built on this server (npm run build:agent-bundle).');
      reply.type('text/x-shellscript; charset=utf-8').header('content-disposition', 'attachment; filename="hopwatch-agent-install.sh"');
      return installerScript(deps, readFileSync(script, 'utf8'), serverUrlOf(request));
    },
  );

  // The agent program (not a browser): its setup key for a credential of its own.
  app.post<{ Body: { AgentId: number; Key: string } }>(
    AgentEnrolPath,
    {
      // Public: the agent program has no console session; its setup key authenticates it.
      config: { changesState: true, access: 'public' },
      bodyLimit: 4096,
      schema: {
        body: { type: 'object', additionalProperties: false, required: ['AgentId', 'Key'], properties: { AgentId: agentIdArg, Key: agentKeyArg } },
        response: { 200: EnrolAnswerSchema },
      },
    },
    async (request) => agents.enrolAgent(deps, request.body),
  );
}

// Not encapsulated: app.agents is what the /mainHub methods use (one deps object for both doors).
(agentsPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
