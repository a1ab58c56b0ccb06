// docs/authorization.md is the authorization matrix as a table, generated from the same
// declarations the checks and the matrix test read. It fails when the page is stale;
// `npm run docs:authz` rewrites it (this test with HOPWATCH_WRITE_AUTHZ_DOC=1).
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { authorizationDoc } from '../support/authorization-matrix.js';
import { readCatalog } from '../support/route-catalog.js';

const page = resolve(import.meta.dirname, '../../docs/authorization.md');

it('docs/authorization.md is the table of the declared access', async () => {
  const text = authorizationDoc(await readCatalog());
  if (process.env.HOPWATCH_WRITE_AUTHZ_DOC === '1') writeFileSync(page, text);
  expect(readFileSync(page, 'utf8'), 'docs/authorization.md is stale: run `npm run docs:authz`').toBe(text);
});
