// Summary calls of spec 2 section 7 (/cmd/...). The hub's CreateSummary calls the same services.
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../account/authenticate.js';
import { recordId } from '../http/schemas.js';
import { SummaryListSchema, SummarySchema } from '../openapi/answers.js';
import * as summaries from './service.js';
import { Claim, LicenseMode } from '../contract/account.js';

const id = recordId;
const text = { type: 'string', maxLength: 4096 } as const;
const query = (required: string[], properties: Record<string, object>) => ({ querystring: { type: 'object', required, properties } });
/** A query schema whose answer is the Summary (documented in the OpenAPI document). */
const answersSummary = (required: string[], properties: Record<string, object>) => ({ ...query(required, properties), response: { 200: SummarySchema } });
/** Spec GETs that create, change or close a summary: refused when another site sends them. */
const changesState = { changesState: true };
/** Every summary call needs the Professional licence; the service checks it too. */
const licence = LicenseMode.Professional;
const manageSummaries = { ...changesState, access: { claim: Claim.SummaryManagement, licence } };
const manageTargets = { ...changesState, access: { claim: Claim.TargetManagement, licence } };

export default async function summariesPlugin(app: FastifyInstance) {
  const deps: summaries.SummaryDeps = { store: app.store, events: app.events, config: app.config };

  app.get('/cmd/getsummaries', { config: { changesState: false, access: { licence, visitor: true } }, schema: { response: { 200: SummaryListSchema } } }, async (request) => summaries.getSummaries(deps, requireUser(request)));

  app.get<{ Querystring: { name: string; addhost?: string } }>(
    '/cmd/newsummary',
    { config: { ...changesState, access: { claim: Claim.SummaryManagement, licence, note: 'with addhost also TargetManagement' } }, schema: answersSummary(['name'], { name: text, addhost: text }) },
    async (request) => summaries.newSummary(deps, requireUser(request), request.query),
  );

  app.get<{ Querystring: { name: string } }>('/cmd/createsummary', { config: manageSummaries, schema: answersSummary(['name'], { name: text }) }, async (request) =>
    summaries.createSummary(deps, requireUser(request), request.query),
  );

  app.get<{ Querystring: { host: string; ID: number } }>(
    '/cmd/addhost',
    { config: manageTargets, schema: answersSummary(['host', 'ID'], { host: text, ID: id }) },
    async (request) => summaries.addHost(deps, requireUser(request), { host: request.query.host, summaryId: request.query.ID }),
  );

  app.get<{ Querystring: { host: string; ID: number } }>(
    '/cmd/removefromsummary',
    { config: manageTargets, schema: answersSummary(['host', 'ID'], { host: text, ID: id }) },
    async (request) =>
      summaries.removeFromSummary(deps, requireUser(request), { host: request.query.host, summaryId: request.query.ID }),
  );

  app.get<{ Querystring: { name: string; ID: number } }>(
    '/cmd/renamesummary',
    { config: manageSummaries, schema: answersSummary(['name', 'ID'], { name: text, ID: id }) },
    async (request) => summaries.renameSummary(deps, requireUser(request), { name: request.query.name, summaryId: request.query.ID }),
  );

  app.get<{ Querystring: { ID: number } }>('/cmd/closesummary', { config: manageSummaries, schema: query(['ID'], { ID: id }) }, async (request, reply) => {
    await summaries.closeSummary(deps, requireUser(request), { summaryId: request.query.ID });
    reply.code(204).send();
  });
}
