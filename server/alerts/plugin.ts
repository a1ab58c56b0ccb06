// Alert calls (docs/alerts.md): GET/POST /api/alerts, GET/PUT/DELETE /api/alerts/:id,
// POST /api/alerts/:id/targets (add or remove), DELETE /api/alerts/actions/:actionId,
// POST /api/alerts/test-action ("Send test"), GET /api/alerts/:id/notifications.
// Everything needs AlertsManagement (spec 3 section 6).
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../account/authenticate.js';
import { Claim } from '../contract/account.js';
import { ActionKinds, AlertEvents, ConditionKinds, LatencyStatistics, MaxHysteresisSeconds, type ActionConfig, type ActionKind, type AlertInput } from '../contract/alerts.js';
import type { AlertService } from './service.js';
import { actionToTest, finishAlert, getPage, parseSerialized, type PageRequest } from './pages.js';

const manage = { claim: Claim.AlertsManagement };
const id = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;
const idParams = { type: 'object', required: ['id'], properties: { id } } as const;

const conditionSchema = {
  type: 'object',
  required: ['Kind'],
  additionalProperties: false,
  properties: {
    Kind: { type: 'string', enum: ConditionKinds },
    Hop: { type: 'integer', minimum: 0, maximum: 255 },
    Samples: { type: 'integer', minimum: 1, maximum: 1000 },
    Lost: { type: 'integer', minimum: 1, maximum: 1000 },
    Statistic: { type: 'string', enum: LatencyStatistics },
    ThresholdMs: { type: 'number', minimum: 0, maximum: 600000 },
    Mos: { type: 'number', minimum: 1, maximum: 5 },
    OfflineSeconds: { type: 'integer', minimum: 1, maximum: 2678400 },
  },
} as const;

/** An action's shape; its fields are checked per kind by the service (checkAction). */
const actionSchema = {
  type: 'object',
  required: ['Kind', 'Config'],
  properties: { ActionID: id, Kind: { type: 'string', enum: ActionKinds }, Config: { type: 'object', maxProperties: 10 } },
} as const;

export const alertBodySchema = {
  type: 'object',
  required: ['Name', 'Condition', 'Events'],
  additionalProperties: false,
  properties: {
    Name: { type: 'string', maxLength: 1000 },
    Condition: conditionSchema,
    Events: { type: 'array', minItems: 1, maxItems: 4, items: { type: 'string', enum: AlertEvents } },
    MinRepeatSeconds: { type: 'integer', minimum: 0, maximum: 2678400 },
    ForSeconds: { type: 'integer', minimum: 0, maximum: MaxHysteresisSeconds },
    RecoverSeconds: { type: 'integer', minimum: 0, maximum: MaxHysteresisSeconds },
    Enabled: { type: 'boolean' },
    Targets: { type: 'array', maxItems: 1000, items: id },
    Actions: { type: 'array', maxItems: 20, items: actionSchema },
  },
} as const;

export default async function alertsPlugin(app: FastifyInstance, opts: { alerts: AlertService }) {
  const alerts = opts.alerts;

  app.get('/api/alerts', { config: { access: manage, changesState: false } }, async (request) => alerts.listAlerts(requireUser(request)));

  app.post<{ Body: AlertInput }>('/api/alerts', { config: { access: manage }, schema: { body: alertBodySchema } }, async (request) =>
    alerts.createAlert(requireUser(request), request.body),
  );

  app.get<{ Params: { id: number } }>('/api/alerts/:id', { config: { access: manage, changesState: false }, schema: { params: idParams } }, async (request) =>
    alerts.getAlert(requireUser(request), request.params.id),
  );

  app.get<{ Params: { id: number } }>('/api/alerts/:id/notifications', { config: { access: manage, changesState: false }, schema: { params: idParams } }, async (request) =>
    alerts.notifications(requireUser(request), request.params.id),
  );

  app.put<{ Params: { id: number }; Body: AlertInput }>('/api/alerts/:id', { config: { access: manage }, schema: { params: idParams, body: alertBodySchema } }, async (request) =>
    alerts.updateAlert(requireUser(request), request.params.id, request.body),
  );

  app.delete<{ Params: { id: number } }>('/api/alerts/:id', { config: { access: manage }, schema: { params: idParams } }, async (request, reply) => {
    await alerts.deleteAlert(requireUser(request), request.params.id);
    return reply.code(204).send();
  });

  app.post<{ Params: { id: number }; Body: { Targets: number[]; Remove?: boolean } }>(
    '/api/alerts/:id/targets',
    {
      config: { access: manage },
      schema: {
        params: idParams,
        body: { type: 'object', required: ['Targets'], additionalProperties: false, properties: { Targets: { type: 'array', minItems: 1, maxItems: 1000, items: id }, Remove: { type: 'boolean' } } },
      },
    },
    async (request) => alerts.changeTargets(requireUser(request), request.params.id, request.body.Targets, !request.body.Remove),
  );

  app.delete<{ Params: { actionId: number } }>(
    '/api/alerts/actions/:actionId',
    { config: { access: manage }, schema: { params: { type: 'object', required: ['actionId'], properties: { actionId: id } } } },
    async (request) => alerts.deleteAction(requireUser(request), request.params.actionId),
  );

  app.post<{ Body: { Kind: ActionKind; Config: ActionConfig; TargetID?: number } }>(
    '/api/alerts/test-action',
    {
      config: { access: manage },
      schema: { body: { type: 'object', required: ['Kind', 'Config'], additionalProperties: false, properties: { ...actionSchema.properties, TargetID: id } } },
    },
    async (request) => alerts.testAction(requireUser(request), request.body.Kind, request.body.Config, request.body.TargetID),
  );

  // The alerts pages of the console's sidebar (spec 3 section 7.3; server/alerts/pages.ts).
  // A GET that changes state (the Management actions): refused cross-site like a POST.
  const pageJson = { type: 'string', maxLength: 64 * 1024 } as const;
  const PageAnswerSchema = {
    type: 'object',
    required: ['HTML', 'EditableSettings'],
    properties: { HTML: { type: 'string' }, EditableSettings: { type: 'object', required: ['Root'], properties: { Root: { type: 'object' } } } },
  } as const;
  app.get<{ Querystring: PageRequest }>(
    '/cmd/getpage',
    {
      config: { access: manage, changesState: true },
      schema: {
        querystring: {
          type: 'object',
          required: ['page'],
          properties: { page: { type: 'string', maxLength: 200 }, parameters: pageJson, selectedTargets: pageJson, settings: pageJson },
        },
        response: { 200: PageAnswerSchema },
      },
    },
    async (request) => getPage(alerts, requireUser(request), request.query),
  );

  const finishBody = {
    type: 'object',
    required: ['SerializedData'],
    additionalProperties: false,
    properties: { SerializedData: pageJson, SessionID: { type: 'integer', minimum: 0, maximum: 2147483647 }, HostID: { type: 'integer', minimum: 0, maximum: 255 }, SelectedTargets: pageJson },
  } as const;
  type FinishBody = { SerializedData: string; SessionID?: number; HostID?: number; SelectedTargets?: string };

  app.post<{ Body: FinishBody }>('/cmd/finishalert', { config: { access: manage }, schema: { body: finishBody, response: { 200: PageAnswerSchema } } }, async (request) =>
    finishAlert(alerts, requireUser(request), request.body),
  );

  /** "Send test" from the New alert form: the form's action, run once. */
  app.post<{ Body: FinishBody }>('/cmd/testalertaction', { config: { access: manage }, schema: { body: finishBody } }, async (request) => {
    const p = requireUser(request);
    const action = await actionToTest(alerts, p, parseSerialized(request.body.SerializedData));
    return alerts.testAction(p, action.Kind, action.Config, request.body.SessionID || undefined);
  });
}
