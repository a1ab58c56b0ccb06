// The authorization matrix (issue 26): who calls, and what each call must answer them,
// derived only from the access each route and hub method declares (server/http/access.ts).
// The matrix test calls every cell; docs/authorization.md is this same table as text.
import type { RouteOptions } from 'fastify';
import { AssignableClaims, Claim, LicenseMode } from '../../server/contract/account.js';
import { allowsTemporaryPassword, allowsVisitor, describeAccess, isApplianceWide, needsClaim, needsLicence, needsRoot, needsSignIn, type Access } from '../../server/http/access.js';
import type { Catalog } from './route-catalog.js';

/** The answer a cell must give: let through (any status but 401/403), 401 or 403. */
export type Expected = 'allowed' | 401 | 403;

export interface CallerRow {
  key: string;
  title: string;
  /** Why the row is not run yet, when it cannot be. */
  skip?: string;
  /** The suite that runs this row's every cell instead of the matrix test (it needs its own appliance and data). */
  runBy?: string;
  expected(access: Access): Expected;
}

/** The server the matrix runs against has the Professional licence (the default). */
const licensed = (a: Access) => needsLicence(a) === undefined || needsLicence(a) === LicenseMode.Professional;

/** A Sidekick server lets its export links' visitors through the licences of the LiveShare viewer. */
const sidekickServerViewer = (a: Access) => {
  const l = needsLicence(a);
  return l === undefined || l === LicenseMode.Professional || l === LicenseMode.Sidekick;
};

export const CallerRows: CallerRow[] = [
  { key: 'anonymous', title: 'anonymous', expected: (a) => (needsSignIn(a) ? 401 : 'allowed') },
  { key: 'noClaims', title: 'signed in, no claims', expected: (a) => (needsClaim(a) || needsRoot(a) ? 403 : 'allowed') },
  { key: 'allButNeeded', title: 'every claim but the needed one', expected: (a) => (needsClaim(a) || needsRoot(a) ? 403 : 'allowed') },
  // For a root-only call, the root user.
  { key: 'exactlyNeeded', title: 'exactly the needed claim', expected: () => 'allowed' },
  {
    key: 'temporaryPassword',
    title: 'every claim, temporary password',
    // Only the calls the change-password screen needs (and public ones) answer.
    expected: (a) => (allowsTemporaryPassword(a) ? 'allowed' : needsSignIn(a) ? 403 : 'allowed'),
  },
  {
    key: 'noLicence',
    title: 'every claim, Standard licence',
    expected: (a) => (needsLicence(a) !== undefined && needsLicence(a) !== LicenseMode.Standard ? 403 : 'allowed'),
  },
  {
    // Signed in by an active link's liveshareid cookie: only the read-only calls that declare
    // `visitor` (their services keep it to the link's targets); everything else is 403.
    key: 'liveShare',
    title: 'LiveShare visitor',
    expected: (a) => (allowsVisitor(a) ? 'allowed' : 403),
  },
  {
    // On a Sidekick-licence server (112), signed in by one of the Sidekick's export links
    // (GetShareUrlsForSidekickTargets): the calls a LiveShare visitor may make, those that
    // need Professional too (the LiveShare viewer is part of the Sidekick product for its
    // own links, licenceCovers in server/account/authenticate.ts); everything else is 403.
    key: 'sidekickVisitor',
    title: 'Sidekick export visitor, Sidekick licence',
    expected: (a) => (allowsVisitor(a) && sidekickServerViewer(a) ? 'allowed' : 403),
  },
  {
    // The first user of a customer account on a hosted appliance (HOPWATCH_DEPLOYMENT=1, the
    // Professional licence): every claim a web user can hold, not root, not staff. The calls
    // about the whole appliance are the provider's (issue 39); everything else answers as it
    // would a user with every claim.
    key: 'hostedCustomer',
    title: 'customer of the hosted flavour',
    expected: (a) => (isApplianceWide(a) || needsRoot(a) || needsClaim(a) === Claim.Staff || !licensed(a) ? 403 : 'allowed'),
  },
  {
    // Every claim, in another account of a cloud appliance, calling with the first account's
    // real ids: answers what it answers its own account, and never the other's data.
    key: 'otherAccount',
    title: 'user of another account',
    runBy: 'test/security/other-account.test.ts',
    expected: () => 'allowed',
  },
];

export interface Call {
  kind: 'REST' | 'hub';
  /** "GET /api/user/:id" or "CreateSummary". */
  name: string;
  access: Access;
  route?: RouteOptions;
}

/** Files of the console (@fastify/static routes): named by content hash, one row in the docs. */
export const isConsoleFile = (r: RouteOptions) => (r.config as { file?: string } | undefined)?.file !== undefined;

/** Every call of the catalog: each route and method (HEAD twins share their GET's declaration). */
export function callsOf(catalog: Catalog): Call[] {
  const calls: Call[] = [];
  for (const route of catalog.routes) {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      const access = (route.config as { access?: Access } | undefined)?.access as Access;
      calls.push({ kind: 'REST', name: `${method} ${route.url}`, access, route: { ...route, method } });
    }
  }
  for (const [name] of catalog.hubMethods) calls.push({ kind: 'hub', name, access: catalog.hubAccess[name] });
  return calls;
}

/** The claim set of a test user for a row and a call. */
export function claimsFor(row: string, access: Access): readonly Claim[] | 'root' {
  const needed = needsClaim(access);
  switch (row) {
    case 'noClaims':
      return [];
    case 'allButNeeded':
      return AssignableClaims.filter((c) => c !== needed);
    case 'exactlyNeeded':
      if (needsRoot(access)) return 'root';
      return needed ? [needed] : [];
    case 'temporaryPassword':
      return AssignableClaims;
    default:
      return 'root';
  }
}

const cellText = (row: CallerRow, a: Access) => (row.skip ? 'not built' : row.runBy ? 'none of its data' : String(row.expected(a)));

/** docs/authorization.md: the declarations and the expected answer of every cell. */
export function authorizationDoc(catalog: Catalog): string {
  const calls = callsOf(catalog);
  const listed = calls.filter((c) => !(c.route && isConsoleFile(c.route))).sort((a, b) => (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'REST' ? -1 : 1));
  const header = ['Call', 'Needs', ...CallerRows.map((r) => r.title)];
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const needs = (a: Access) => describeAccess(a) + (typeof a === 'object' && a.note ? ` (${a.note})` : '');
  const rows = listed.map((c) => line([c.kind === 'hub' ? `hub \`${c.name}\`` : `\`${c.name}\``, needs(c.access), ...CallerRows.map((r) => cellText(r, c.access))]));
  // Always listed: the files exist once the console is built (their names change per build).
  rows.push(line(['`GET` console files (index.html, assets)', 'anyone', ...CallerRows.map((r) => cellText(r, 'public'))]));
  return [
    '# Authorization matrix',
    '',
    'Generated from the access each route (`config.access`) and each /mainHub method (`access`)',
    'declares (server/http/access.ts); do not edit by hand. Regenerate with `npm run docs:authz`;',
    'test/security/authorization-doc.test.ts fails when this page and the declarations differ.',
    'test/security/authorization-matrix.test.ts makes every call of every row below and checks',
    'the answer: "allowed" means anything but 401/403 (the made-up input may still get 400 or',
    '404), 401 not signed in, 403 missing claim or licence (`{"Error": ...}` in both). Hub',
    'methods are refused to anonymous callers at connection (401 on negotiate).',
    '',
    'Rows run as: a user with no claims; a user with every claim a web user can hold except the',
    "one the call needs; a user with exactly that claim (the root user for a root-only call); a",
    'user with every claim who still has the temporary password an admin set (only the calls',
    'the change-password screen needs answer them; the hub refuses their connection with 403);',
    'the root user of a server with the Standard licence (calls that need Professional answer',
    '403); a LiveShare visitor (the liveshareid cookie of an active link), let through only where',
    'the call declares "LiveShare visitors too"; the visitor of a Sidekick export link on a server',
    'with the Sidekick licence (112), let through where a LiveShare visitor is, the calls that need',
    'Professional included (docs/sidekick.md: the viewer is part of the Sidekick product for its own',
    'links; any other link signs no visitor in there); the first user of a customer account of a hosted',
    'appliance (HOPWATCH_DEPLOYMENT=1: every claim a web user can hold, neither root nor staff), refused',
    'every call declared appliance-wide (only the provider makes them there: its staff, the root user);',
    'a user with every claim in another account of a',
    'cloud appliance, calling with the first account\'s real ids (test/security/other-account.test.ts:',
    '"none of its data" means no answer carries the other account\'s data and nothing of it changes).',
    '',
    line(header),
    line(header.map(() => '---')),
    ...rows,
    '',
  ].join('\n');
}
