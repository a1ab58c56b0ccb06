// Serves the built console with an SPA fallback: any GET that is not an API path and not a
// file returns index.html, so deep links (/targets/5, /LiveShare/a/b) open the app.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { isApiPath, pathOfUrl } from '../http/api-paths.js';
import { unauthorized } from '../http/errors.js';

export default async function webPlugin(app: FastifyInstance, opts: { webDir: string }) {
  const hasConsole = existsSync(join(opts.webDir, 'index.html'));
  // The console's source maps (its TypeScript as written) go to signed-in users only: they
  // help an operator read a console error, and give an anonymous visitor a map of the
  // appliance's calls for free (docs/security.md). Added before the file routes exist.
  app.addHook('preHandler', async (request) => {
    if (pathOfUrl(request.url).endsWith('.map') && !request.principal) throw unauthorized('Sign in to read the console source maps.');
  });
  if (hasConsole) {
    await app.register(fastifyStatic, {
      root: opts.webDir,
      wildcard: false,
      index: false,
      setHeaders(res, path) {
        // Vite names assets by content hash, so they never change under one name.
        if (path.includes(`${join(opts.webDir, 'assets')}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  } else {
    app.log.warn({ webDir: opts.webDir }, 'console not built: run `npm run build`');
  }

  app.setNotFoundHandler((request, reply) => {
    const path = pathOfUrl(request.url);
    if (isApiPath(path) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      reply.code(404).send({ Error: `No such call: ${request.method} ${path}` });
      return;
    }
    if (!hasConsole) {
      reply.code(503).send({ Error: 'The console is not built. Run `npm run build` and restart.' });
      return;
    }
    reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
