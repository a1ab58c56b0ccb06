// The eight LiveShare calls of spec 1 section 7 (/api/liveshare...). Each needs
// SummaryManagement and the Professional licence; visitors reach none of them.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireUser } from '../account/authenticate.js';
import { Claim, LicenseMode } from '../contract/account.js';
import type { AddLinkHistoryInput, LiveShareLinkInput } from '../contract/liveshare.js';
import { LinkHistorySchema, LinkHistoryListSchema, LiveShareLinkListSchema, LiveShareLinkSchema } from '../openapi/answers.js';
import { serverUrlOf } from '../agents/plugin.js';
import { PasswordSeal } from './secrets.js';
import * as links from './service.js';

const access = { claim: Claim.SummaryManagement, licence: LicenseMode.Professional };
const read = { changesState: false, access };
const write = { changesState: true, access };

const shareId = { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' } as const;
const summaryRef = { type: 'string', minLength: 1, maxLength: 80 } as const;
const linkBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    Description: { type: 'string', maxLength: 200 },
    Notes: { type: 'string', maxLength: 4000 },
    ExpirationDate: { type: ['string', 'null'], maxLength: 64 },
    Active: { type: 'boolean' },
    SummaryID: summaryRef,
    TargetID: { type: 'string', maxLength: 80 },
  },
} as const;
const historyBody = {
  type: 'object',
  required: ['ShareId', 'Action'],
  additionalProperties: false,
  properties: { ShareId: shareId, Action: { type: 'string', minLength: 1, maxLength: 64 }, LogText: { type: 'string', maxLength: 2000 } },
} as const;
const queryOf = (name: string, schema: object) => ({ type: 'object', required: [name], properties: { [name]: schema } });

export default async function liveSharePlugin(app: FastifyInstance) {
  const deps: links.LiveShareDeps = { store: app.store, events: app.events, config: app.config, seal: PasswordSeal.forStore(app.store) };
  const ctx = (r: FastifyRequest): links.CallContext => ({ address: r.ip, serverUrl: serverUrlOf(r) });

  app.get('/api/liveshare', { config: read, schema: { response: { 200: LiveShareLinkListSchema } } }, async (r) => links.listLinks(deps, requireUser(r), ctx(r)));

  app.post<{ Body: LiveShareLinkInput }>('/api/liveshare', { config: write, schema: { body: { ...linkBody, required: ['SummaryID'] }, response: { 200: LiveShareLinkSchema } } }, async (r) =>
    links.createLink(deps, requireUser(r), r.body, ctx(r)),
  );

  app.get<{ Querystring: { summaryID: string } }>(
    '/api/liveshare/GetLinksForSummary',
    { config: read, schema: { querystring: queryOf('summaryID', summaryRef), response: { 200: LiveShareLinkListSchema } } },
    async (r) => links.linksForSummary(deps, requireUser(r), r.query.summaryID, ctx(r)),
  );

  app.get<{ Querystring: { shareId: string } }>(
    '/api/liveshare/GetHistoryForLink',
    { config: read, schema: { querystring: queryOf('shareId', shareId), response: { 200: LinkHistoryListSchema } } },
    async (r) => links.historyForLink(deps, requireUser(r), r.query.shareId),
  );

  app.put<{ Body: AddLinkHistoryInput }>('/api/liveshare/AddLinkHistory', { config: write, schema: { body: historyBody, response: { 200: LinkHistorySchema } } }, async (r) =>
    links.addLinkHistory(deps, requireUser(r), r.body, ctx(r)),
  );

  app.delete<{ Querystring: { shareId: string } }>('/api/liveshare/DeleteLink', { config: write, schema: { querystring: queryOf('shareId', shareId) } }, async (r, reply) => {
    await links.deleteLink(deps, requireUser(r), r.query.shareId, ctx(r));
    return reply.code(204).send();
  });

  app.get<{ Params: { shareId: string } }>(
    '/api/liveshare/:shareId',
    { config: read, schema: { params: queryOf('shareId', shareId), response: { 200: LiveShareLinkSchema } } },
    async (r) => links.getLink(deps, requireUser(r), r.params.shareId, ctx(r)),
  );

  app.put<{ Params: { shareId: string }; Body: LiveShareLinkInput }>(
    '/api/liveshare/:shareId',
    { config: write, schema: { params: queryOf('shareId', shareId), body: linkBody, response: { 200: LiveShareLinkSchema } } },
    async (r) => links.updateLink(deps, requireUser(r), r.params.shareId, r.body, ctx(r)),
  );
}
