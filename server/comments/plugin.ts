// Comment calls of spec 2 section 7 (/cmd/...createcomment, updatecomment, deletecomment, getcomments).
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../account/authenticate.js';
import * as comments from './service.js';
import { Claim } from '../contract/account.js';

const int32 = { type: 'integer', minimum: -2147483648, maximum: 2147483647 } as const;
/** The Comment DTO; Text and When are checked by the service so its messages reach the user. */
export const commentBodySchema = {
  type: 'object',
  properties: {
    Id: { type: 'integer', minimum: 1, maximum: 2147483647 },
    When: { type: 'string', maxLength: 64 },
    Text: { type: 'string', maxLength: 65536 },
    Type: int32,
    SessionWebId: { type: 'string', maxLength: 64 },
    ExtraAttributesJson: { type: 'string', maxLength: 65536 },
  },
} as const;

/** Writing comments needs TargetManagement; any signed-in user of the account reads them. */
const manage = { claim: Claim.TargetManagement };
const timeParam = { type: 'string', minLength: 1, maxLength: 64 } as const;

export default async function commentsPlugin(app: FastifyInstance) {
  const deps: comments.CommentDeps = { store: app.store, events: app.events };

  app.put<{ Body: comments.CommentInput }>('/cmd/createcomment', { config: { access: manage }, schema: { body: { ...commentBodySchema, required: ['SessionWebId'] } } }, async (request) =>
    comments.createComment(deps, requireUser(request), request.body),
  );

  app.patch<{ Body: comments.CommentInput }>('/cmd/updatecomment', { config: { access: manage }, schema: { body: { ...commentBodySchema, required: ['Id'] } } }, async (request) =>
    comments.updateComment(deps, requireUser(request), request.body),
  );

  app.delete<{ Querystring: { sessionWebId: string; commentId: number } }>(
    '/cmd/deletecomment',
    {
      config: { access: manage },
      schema: {
        querystring: {
          type: 'object',
          required: ['sessionWebId', 'commentId'],
          properties: { sessionWebId: { type: 'string', maxLength: 64 }, commentId: { type: 'integer', minimum: 1, maximum: 2147483647 } },
        },
      },
    },
    async (request, reply) => {
      await comments.deleteComment(deps, requireUser(request), request.query);
      reply.code(204).send();
    },
  );

  app.get<{ Querystring: { sessionWebId: string; startDate: string; endDate: string } }>(
    '/cmd/getcomments',
    {
      config: { changesState: false, access: { visitor: true } },
      schema: {
        querystring: {
          type: 'object',
          required: ['sessionWebId', 'startDate', 'endDate'],
          properties: { sessionWebId: { type: 'string', maxLength: 64 }, startDate: timeParam, endDate: timeParam },
        },
      },
    },
    async (request) => comments.getComments(deps, requireUser(request), request.query),
  );
}
