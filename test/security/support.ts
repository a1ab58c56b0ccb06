// Shared pieces of the security suites: web users made by the admin, hub connections that
// record how they closed, and a check that the appliance process still answers.
import { expect } from 'vitest';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import type { Appliance } from '../support/appliance.js';
import { createWebUser } from '../support/web-users.js';

export const q = encodeURIComponent;

export function caller(hw: Appliance) {
  return (path: string, cookie: string | undefined, init: RequestInit = {}) =>
    fetch(`${hw.url}${path}`, {
      ...init,
      headers: { ...(cookie ? { cookie } : {}), 'content-type': 'application/json', ...(init.headers ?? {}) },
    });
}

/**
 * Creates a web user as the admin; returns its id. The user has replaced the admin's
 * temporary password with `password` (test/support/web-users.ts) unless `temporary`.
 */
export async function createUser(hw: Appliance, admin: string, email: string, password: string, roles: string[], temporary = false): Promise<number> {
  const created = await createWebUser(hw.url, admin, { email, password, roles, temporary });
  expect(created.EmailAddress).toBe(email);
  return created.Id;
}

export interface WatchedConnection {
  connection: HubConnection;
  /** Resolves with the close error (undefined for a clean close) when the connection closes. */
  closed: Promise<Error | undefined>;
}

/** A started /mainHub connection without automatic reconnect, so a server close is final. */
export async function connectHub(hw: Appliance, cookie: string, transport: HttpTransportType): Promise<WatchedConnection> {
  const connection = new HubConnectionBuilder()
    .withUrl(`${hw.url}/mainHub`, { transport, headers: { cookie } })
    .configureLogging(LogLevel.None)
    .build();
  const closed = new Promise<Error | undefined>((resolve) => connection.onclose((err) => resolve(err)));
  await connection.start();
  return { connection, closed };
}

export const transports = [
  ['WebSockets', HttpTransportType.WebSockets],
  ['LongPolling', HttpTransportType.LongPolling],
] as const;

/** The process is alive and ready (a crash would show here as a refused connection). */
export async function expectAlive(hw: Appliance): Promise<void> {
  const r = await fetch(`${hw.url}/readyz`);
  expect(r.status).toBe(200);
}

/**
 * A LiveShare visitor: the cookie a browser keeps after opening an active link to a new
 * summary (liveshareid = "{shareId}/{password}", URL-encoded as the console writes it).
 */
export async function liveShareVisitor(hw: Appliance, admin: string, summaryName = `shared-${Date.now()}`): Promise<string> {
  const call = caller(hw);
  const s = await call(`/cmd/createsummary?name=${q(summaryName)}`, admin);
  expect(s.status, await s.clone().text()).toBe(200);
  const summary = (await s.json()) as { UniqueID: string };
  const r = await call('/api/liveshare', admin, { method: 'POST', body: JSON.stringify({ SummaryID: `SUM-${summary.UniqueID}` }) });
  expect(r.status, await r.clone().text()).toBe(200);
  const link = (await r.json()) as { ShareId: string; SecurePW: string };
  return `liveshareid=${q(`${link.ShareId}/${link.SecurePW}`)}`;
}

/**
 * The visitor of a Sidekick export link: discovers the Sidekick (as `admin`, on a server with
 * Sidekick) and opens the first link GetShareUrlsForSidekickTargets makes.
 */
export async function sidekickExportVisitor(hw: Appliance, admin: string): Promise<string> {
  const call = caller(hw);
  const start = await call('/api/Sidekick/StartDiscovery', admin);
  expect(start.status, await start.text()).toBe(204);
  // Running (3): expect.poll is for tests, and this runs in beforeAll.
  for (const until = Date.now() + 60_000; ; ) {
    const state = (await (await call('/api/Sidekick/SidekickState', admin)).json()) as { Stage: number };
    if (state.Stage === 3) break;
    if (Date.now() > until) throw new Error(`Sidekick discovery did not finish: ${JSON.stringify(state)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const r = await call('/api/Sidekick/GetShareUrlsForSidekickTargets', admin);
  expect(r.status, await r.clone().text()).toBe(200);
  const urls = (await r.json()) as { ShareUrl: string }[];
  expect(urls.length).toBeGreaterThan(0);
  // /LiveShare/{shareId}/{password}, kept as the console keeps it.
  return `liveshareid=${q(new URL(urls[0].ShareUrl).pathname.split('/').slice(2).join('/'))}`;
}
