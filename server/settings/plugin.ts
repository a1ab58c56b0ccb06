// The settings editor's calls (spec 2 section 7 "Sessions and settings", spec 3 section 7.3):
// /api/Settings/* and GET /cmd/getscreen. Every change needs SettingsManagement; reading the
// settings only sign-in (consoles read General's time graph options and Display from it).
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../account/authenticate.js';
import { Claim, DeploymentMode } from '../contract/account.js';
import type { SaveSettingsRequest } from '../contract/settings.js';
import { int32, recordId } from '../http/schemas.js';
import type { TraceRunner } from '../targets/trace-runner.js';
import { NetworkInterfaceListSchema, PacketTypeListSchema, SettingsScreenSchema } from '../openapi/answers.js';
import * as settings from './service.js';
import { remoteServerSeal } from '../remote-server/settings.js';

const manage = { access: { claim: Claim.SettingsManagement } };
const version = { type: 'integer', minimum: 0, maximum: 2147483647 } as const;
/** The tree's shape is checked node by node by the service (server/settings/tree.ts), naming the path. */
const changedSettings = { type: 'object', properties: { Version: version, Root: { type: 'object' } }, additionalProperties: false } as const;

export default async function settingsPlugin(app: FastifyInstance, opts: { runner: TraceRunner }) {
  const dataDir = app.config.dataDir;
  const deps: settings.SettingsDeps = {
    store: app.store,
    events: app.events,
    config: app.config,
    runner: opts.runner,
    // The key file is made when the first remote-server password is saved.
    get seal() {
      return remoteServerSeal(app.store, dataDir);
    },
  };

  app.get('/api/Settings/getsettings', { config: { changesState: false, access: 'signedIn' } }, async (request) => settings.getSettings(deps, requireUser(request)));

  app.get('/api/Settings/getsettingtraits', { config: { ...manage, changesState: false } }, async (request) => settings.getSettingTraits(deps, requireUser(request)));

  app.post<{ Body: SaveSettingsRequest }>(
    '/api/Settings/savesettings',
    { config: manage, schema: { body: { ...changedSettings, required: ['Version', 'Root'] } } },
    async (request) => settings.saveSettings(deps, requireUser(request), request.body),
  );

  app.post<{ Body: Partial<SaveSettingsRequest> | undefined }>(
    '/api/Settings/createnewconfig',
    { config: manage, schema: { body: changedSettings } },
    async (request) => settings.createNewConfig(deps, requireUser(request), request.body ?? undefined),
  );

  app.post<{ Querystring: { configId: number }; Body: Partial<SaveSettingsRequest> | undefined }>(
    '/api/Settings/cloneconfig',
    { config: manage, schema: { querystring: { type: 'object', required: ['configId'], properties: { configId: recordId } }, body: changedSettings } },
    async (request) => settings.cloneConfig(deps, requireUser(request), request.query.configId, request.body ?? undefined),
  );

  app.post<{ Querystring: { configId: number; Version?: number } }>(
    '/api/Settings/deleteconfig',
    { config: manage, schema: { querystring: { type: 'object', required: ['configId'], properties: { configId: recordId, Version: version } } } },
    async (request) => settings.deleteConfig(deps, requireUser(request), request.query.configId, request.query.Version),
  );

  app.post('/api/Settings/getpackettypes', { config: manage, schema: { response: { 200: PacketTypeListSchema } } }, async (request) =>
    settings.getPacketTypes(requireUser(request), app.config.deployment === DeploymentMode.Cloud),
  );

  app.post<{ Querystring: { agentId?: number } }>(
    '/api/Settings/getnetworkinterfaces',
    { config: manage, schema: { querystring: { type: 'object', properties: { agentId: int32 } }, response: { 200: NetworkInterfaceListSchema } } },
    async (request) => settings.getNetworkInterfaces(deps, requireUser(request), request.query.agentId),
  );

  app.get<{ Querystring: { screenName: string; configId?: number } }>(
    '/cmd/getscreen',
    {
      config: { ...manage, changesState: false },
      schema: {
        querystring: { type: 'object', required: ['screenName'], properties: { screenName: { type: 'string', maxLength: 50 }, configId: recordId } },
        response: { 200: SettingsScreenSchema },
      },
    },
    async (request) => settings.getScreen(deps, requireUser(request), request.query.screenName, request.query.configId),
  );
}
