// Feedback's calls: GET /api/staff/feedback, POST /api/staff/feedback/:kind/:id/answer, and
// the account's side: GET /api/support/Answers (any signed-in user of the account).
import type { FastifyInstance } from 'fastify';
import { FeedbackKind } from '../../contract/staff.js';
import { requireUser } from '../../account/authenticate.js';
import { recordId } from '../../http/schemas.js';
import { mailer } from '../../mail/transport.js';
import { MaxStaffRows, StaffAccess } from '../access.js';
import { AccountFeedbackAnswerListSchema, FeedbackItemListSchema, FeedbackItemSchema } from '../schemas.js';
import { accountAnswers, AnswerMaxLength, answerFeedback, listFeedbackItems, type FeedbackDeps } from './service.js';

const kind = { type: 'string', enum: Object.values(FeedbackKind) } as const;

export default async function feedbackPlugin(app: FastifyInstance) {
  const deps: FeedbackDeps = { store: app.store, sendMail: mailer(app.store) };
  app.get<{ Querystring: { kind?: FeedbackKind; accountId?: number; unansweredOnly?: boolean; limit?: number } }>(
    '/api/staff/feedback',
    {
      config: { changesState: false, access: StaffAccess },
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { kind, accountId: recordId, unansweredOnly: { type: 'boolean' }, limit: { type: 'integer', minimum: 1, maximum: MaxStaffRows } },
        },
        response: { 200: FeedbackItemListSchema },
      },
    },
    async (request) => {
      const { kind: k, accountId, unansweredOnly, limit = 200 } = request.query;
      return listFeedbackItems(deps, { kind: k, accountId, unansweredOnly, limit });
    },
  );
  app.post<{ Params: { kind: FeedbackKind; id: number }; Body: { Text: string } }>(
    '/api/staff/feedback/:kind/:id/answer',
    {
      config: { access: StaffAccess },
      schema: {
        params: { type: 'object', required: ['kind', 'id'], properties: { kind, id: recordId } },
        body: { type: 'object', required: ['Text'], additionalProperties: false, properties: { Text: { type: 'string', maxLength: AnswerMaxLength + 1000 } } },
        response: { 200: FeedbackItemSchema },
      },
    },
    async (request) => answerFeedback(deps, requireUser(request), request.params.kind, request.params.id, request.body.Text),
  );
  app.get(
    '/api/support/Answers',
    { config: { changesState: false, access: 'signedIn' }, schema: { response: { 200: AccountFeedbackAnswerListSchema } } },
    async (request) => accountAnswers(deps, requireUser(request)),
  );
}
