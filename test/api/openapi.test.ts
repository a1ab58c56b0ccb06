// GET /api/openapi.json (issue 15 item 8): an OpenAPI 3 document of every registered route,
// served without sign-in, with the {"Error": ...} body on every 4xx, and response schemas for
// the answers the spec names that real answers satisfy.
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { loadBuilt, readCatalog, type Catalog } from '../support/route-catalog.js';

type Operation = { responses?: Record<string, { content?: { 'application/json'?: { schema?: unknown } } }> };
type Document = { openapi: string; info: { version: string }; paths: Record<string, Record<string, Operation>> };

let hw: Appliance;
let admin: string;
let doc: Document;
let catalog: Catalog;

beforeAll(async () => {
  catalog = await readCatalog();
  hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'root-pw' } });
  admin = await signIn(hw.url, 'admin', 'root-pw');
  const r = await fetch(`${hw.url}/api/openapi.json`);
  expect(r.status).toBe(200);
  doc = (await r.json()) as Document;
}, 120_000);
afterAll(async () => {
  await hw?.dispose();
});

/** Fastify's `/api/user/:id` is OpenAPI's `/api/user/{id}`. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

describe('the OpenAPI document', () => {
  it('is OpenAPI 3, served without sign-in, with the server version', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('lists every registered route with its method (the static console files aside)', () => {
    const missing: string[] = [];
    let listed = 0;
    for (const route of catalog.routes) {
      // Fastify adds a HEAD twin to every GET; @fastify/static's file routes hide themselves.
      if ((route.schema as { hide?: boolean } | undefined)?.hide) continue;
      for (const method of [route.method].flat()) {
        if (method === 'HEAD') continue;
        listed++;
        if (!doc.paths[openApiPath(route.url)]?.[method.toLowerCase()]) missing.push(`${method} ${route.url}`);
      }
    }
    expect(listed).toBeGreaterThan(40);
    expect(missing).toEqual([]);
  });

  it('gives every operation the Error body for its 4xx answers', () => {
    const without = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => {
          const schema = op.responses?.['4XX']?.content?.['application/json']?.schema as { properties?: Record<string, unknown> } | undefined;
          return !schema?.properties?.Error;
        })
        .map(([method]) => `${method} ${path}`),
    );
    expect(without).toEqual([]);
  });
});

describe('answers satisfy their documented schemas', () => {
  let answers: typeof import('../../server/openapi/answers.js');
  const ajv = new Ajv({ strict: false, allErrors: true });
  beforeAll(async () => {
    answers = await loadBuilt('openapi/answers.js');
  });

  async function check(path: string, schema: object, documentedAt: string) {
    const r = await fetch(`${hw.url}${path}`, { headers: { cookie: admin } });
    expect(r.status, await r.clone().text()).toBe(200);
    const body: unknown = await r.json();
    const validate = ajv.compile(schema);
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    // The document carries the same schema for that answer.
    expect(doc.paths[documentedAt]?.get?.responses?.['200']?.content?.['application/json']?.schema).toBeDefined();
    return body;
  }

  it('GetCurrentUser, app config, healthz', async () => {
    await check('/api/Account/GetCurrentUser', answers.CurrentUserSchema, '/api/Account/GetCurrentUser');
    await check('/api/app/config', answers.AppConfigSchema, '/api/app/config');
    await check('/healthz', answers.HealthSchema, '/healthz');
  });

  it('summaries, a new target and its data point buckets', async () => {
    await check('/cmd/createsummary?name=OpenAPI', answers.SummarySchema, '/cmd/createsummary');
    await check('/cmd/getsummaries', answers.SummaryListSchema, '/cmd/getsummaries');
    const t = (await check('/cmd/newtarget?target=127.0.0.1&traceInterval=60', answers.TargetIdResultSchema, '/cmd/newtarget')) as { ID: number };
    const end = new Date();
    const start = new Date(end.getTime() - 600_000);
    const q = `targetId=${t.ID}&startTime=${encodeURIComponent(start.toISOString())}&endTime=${encodeURIComponent(end.toISOString())}&periodSeconds=60&includeJitter=true`;
    await check(`/api/data/DataPointBuckets?${q}`, answers.DataPointBucketsSchema, '/api/data/DataPointBuckets');
  });
});
