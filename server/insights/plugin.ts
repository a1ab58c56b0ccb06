// Insights routes of spec 3 section 7.1 under /api/data/, and the per-test pages that
// results link to (ReadMoreUrl: /docs/insights/{page}), rendered as HTML pages (read-more.ts).
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../account/authenticate.js';
import { notFound } from '../http/errors.js';
import type { RecentSource } from '../data/sources.js';
import type { WisdomFeedback } from '../contract/insights.js';
import { readMorePage } from './read-more.js';
import { addFeedback, FeedbackPerMinute, getWisdomDefaultTimeRange, runTargetWisdomTests, type InsightsDeps } from './service.js';
import { SlidingWindowLimit } from './rate-limit.js';
import {
  FeedbackAnswerSchema,
  FeedbackBodySchema,
  WisdomResultSchema,
  WisdomTimeRangeSchema,
  includeDetailsArg,
  periodMinutesArg,
  targetIdArg,
  testIdsArg,
  timeArg,
} from './schemas.js';

/** Where the per-test pages are: docs/insights/ of the source tree (beside dist/ in the image). */
const pagesDir = fileURLToPath(new URL('../../../docs/insights/', import.meta.url));

function testIdsOf(v: unknown): number[] | undefined {
  if (v === undefined) return undefined;
  const list = Array.isArray(v) ? v : String(v).split(',');
  const ids = list.map((x) => Number(String(x).trim())).filter((n) => Number.isInteger(n));
  return ids.length ? ids : undefined;
}

export default async function insightsPlugin(app: FastifyInstance, opts: { recent?: RecentSource }) {
  const deps: InsightsDeps = {
    store: app.store,
    config: app.config,
    events: app.events,
    recent: opts.recent,
    feedbackLimit: new SlidingWindowLimit(FeedbackPerMinute, 60_000, app.counters('insights-feedback')),
  };

  app.get<{ Querystring: { id: string; periodMinutes: number } }>(
    '/api/data/GetWisdomDefaultTimeRange',
    {
      config: { changesState: false, access: 'signedIn' },
      schema: {
        querystring: { type: 'object', required: ['id', 'periodMinutes'], properties: { id: targetIdArg, periodMinutes: periodMinutesArg } },
        response: { 200: WisdomTimeRangeSchema },
      },
    },
    async (request) => getWisdomDefaultTimeRange(deps, requireUser(request), { id: String(request.query.id), periodMinutes: request.query.periodMinutes }),
  );

  app.get<{ Querystring: { id: string; startTime: string; endTime: string; includeDetails: boolean; testIds?: unknown } }>(
    '/api/data/RunTargetWisdomTests',
    {
      // Runs the tests and pushes progress, but stores nothing: no state changes.
      config: { changesState: false, access: 'signedIn' },
      schema: {
        querystring: {
          type: 'object',
          required: ['id', 'startTime', 'endTime', 'includeDetails'],
          properties: { id: targetIdArg, startTime: timeArg, endTime: timeArg, includeDetails: includeDetailsArg, testIds: testIdsArg },
        },
        response: { 200: WisdomResultSchema },
      },
    },
    async (request) => {
      const q = request.query;
      return runTargetWisdomTests(deps, requireUser(request), {
        id: String(q.id),
        startTime: q.startTime,
        endTime: q.endTime,
        includeDetails: q.includeDetails,
        testIds: testIdsOf(q.testIds),
      });
    },
  );

  app.post<{ Body: Partial<WisdomFeedback> & { Rating: number } }>(
    '/api/data/AddFeedback',
    { config: { changesState: true, access: 'signedIn' }, schema: { body: FeedbackBodySchema, response: { 200: FeedbackAnswerSchema } } },
    async (request) => {
      const b = request.body;
      return addFeedback(deps, requireUser(request), {
        SessionId: b.SessionId ?? '',
        Rating: b.Rating,
        Comments: b.Comments ?? '',
        HelpRequested: b.HelpRequested ?? false,
        ContextJson: b.ContextJson ?? '',
      });
    },
  );

  app.get<{ Params: { page: string } }>(
    '/docs/insights/:page',
    {
      config: { changesState: false, access: 'public' },
      schema: { params: { type: 'object', required: ['page'], properties: { page: { type: 'string', maxLength: 80, pattern: '^[a-z0-9-]+\\.md$' } } } },
    },
    async (request, reply) => {
      const path = pagesDir + request.params.page;
      if (!existsSync(path)) throw notFound(`There is no Insights page ${request.params.page}.`);
      // A page in the console's look (read-more.ts), not the Markdown source.
      reply.type('text/html; charset=utf-8');
      return readMorePage(readFileSync(path, 'utf8'), request.params.page);
    },
  );
}
