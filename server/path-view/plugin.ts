// GET /api/path/PathView (issue 44): the Path view of a target or a summary over a range.
// The hub method PathView (server/mainhub/methods.ts) calls the same service function.
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../account/authenticate.js';
import type { PathViewKind } from '../contract/path-view.js';
import { SignedInOrVisitor } from '../http/access.js';
import { pathView, type PathViewDeps } from './service.js';
import { PathViewAnswerSchema, pathViewIdArg, pathViewKindArg, pathViewTimeArg } from './schemas.js';

// Read-only, open to LiveShare visitors too: the data service's reads it goes through keep a
// visitor to its link's targets and summary (server/liveshare/scope.ts).
export default async function pathViewPlugin(app: FastifyInstance, opts: { deps: PathViewDeps }) {
  app.get<{ Querystring: { kind: PathViewKind; id: string; start: string; end: string } }>(
    '/api/path/PathView',
    {
      config: { changesState: false, access: SignedInOrVisitor },
      schema: {
        querystring: {
          type: 'object',
          required: ['kind', 'id', 'start', 'end'],
          properties: { kind: pathViewKindArg, id: pathViewIdArg, start: pathViewTimeArg, end: pathViewTimeArg },
        },
        response: { 200: PathViewAnswerSchema },
      },
    },
    async (request) => pathView(opts.deps, requireUser(request), { kind: request.query.kind, id: String(request.query.id), start: request.query.start, end: request.query.end }),
  );
}
