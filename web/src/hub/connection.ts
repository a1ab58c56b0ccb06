// The console's one /mainHub connection (spec 3 section 7.5): started on first use, retried
// every 2.5 s until it connects, reconnecting on its own after a drop. Events fan out to
// every subscriber, and groups joined through `keepRegistered` are joined again after a
// reconnect (the server forgets a connection's groups when it closes). The session cookie
// authenticates; a 401/403 re-reads the current user, which sends a lost session to /login.
// The current user is also re-read when the connection starts, drops and is back (rights may
// have changed meanwhile), and when the server says the user changed (UserUpdated, spec 1
// section 4 and issue 26), so the sidebar follows a role change without a reload.
// Method and event names, arguments and answers are typed by server/contract/mainhub.ts,
// the same contract the server's hub is checked against: call sites give no types.
import { HubConnectionBuilder, HubConnectionState, LogLevel, type HubConnection } from '@microsoft/signalr';
import type {
  MainHubArgs,
  MainHubEventName,
  MainHubEvents,
  MainHubMethodName,
  MainHubRegistration,
  MainHubRegistrations,
  MainHubResult,
} from '../../../server/contract/mainhub';
import { isServerBusy, ServerBusyRetrySeconds } from '../../../server/contract/busy';
import { refreshCurrentUser } from '../state/session';
import { inFlightLimit } from './inFlight';

export const HubPath = '/mainHub';
export const HubRetryMs = 2500;
/** Wait before a group join refused as too busy is asked again: the server's Retry-After. */
export const BusyRetryMs = ServerBusyRetrySeconds * 1000;

/**
 * Wait before reconnect attempt N (0 = the first after the connection was lost). The first goes at
 * once, as SignalR's own default does: behind a load balancer the replica that dropped us may be
 * dead while the others answer, and a console should not sit 2.5 s on a connection that another
 * replica would take now (test/cluster/cluster-proof.test.ts). A FAILED attempt waits 2.5 s
 * (spec 3, "Connection behaviour"), for as long as it takes: a monitoring console comes back by itself.
 */
export function reconnectDelayMs(previousRetryCount: number): number {
  return previousRetryCount === 0 ? 0 : HubRetryMs;
}

type Handler = (...args: never[]) => void;

/** Invocations in flight on the connection at once: well under the server's 64 (see inFlight.ts). */
export const MaxInvocationsInFlight = 32;
const limited = inFlightLimit(MaxInvocationsInFlight);

/**
 * The cloud flavour's bearer token (spec 3 section 7.5), set at start-up in cloud mode
 * (web/src/hub/bearerToken.ts): undefined while there is none (not signed in: no connection
 * is attempted), '' for a LiveShare visitor (its cookie alone). Self-hosted: no source.
 */
type BearerSource = () => Promise<string | undefined>;
let bearer: BearerSource | undefined;

let onAuthRefused: (() => void) | undefined;

/** `forget` runs when the server refuses the token (it is read again on the next try). */
export function setBearerTokenSource(source: BearerSource | undefined, forget?: () => void): void {
  bearer = source;
  onAuthRefused = forget;
}

let connection: HubConnection | undefined;
let starting: Promise<HubConnection> | undefined;
/** False after stopHub (signed out): retries end instead of knocking with a 401 forever. */
let wanted = true;
const handlers = new Map<string, Set<Handler>>();
const registrations = new Set<() => Promise<void>>();

const statusOf = (e: unknown) => (e && typeof e === 'object' && 'statusCode' in e ? Number((e as { statusCode: unknown }).statusCode) : 0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function build(): HubConnection {
  const c = new HubConnectionBuilder()
    .withUrl(HubPath, bearer ? { accessTokenFactory: async () => (await bearer!()) ?? '' } : {})
    .withAutomaticReconnect({ nextRetryDelayInMilliseconds: ({ previousRetryCount }) => reconnectDelayMs(previousRetryCount) })
    .configureLogging(LogLevel.Warning)
    .build();
  c.onreconnecting(() => void refreshCurrentUser());
  c.onreconnected(() => {
    void refreshCurrentUser();
    for (const register of registrations) register().catch(() => undefined);
  });
  c.on('UserUpdated', () => void refreshCurrentUser());
  c.onclose(() => {
    if (connection !== c || !wanted) return;
    // Automatic reconnect gave up or the server refused us: start over (and re-check the user).
    starting = undefined;
    void refreshCurrentUser();
    setTimeout(() => void ensureStarted().catch(() => undefined), HubRetryMs);
  });
  for (const name of handlers.keys()) attach(c, name);
  return c;
}

function attach(c: HubConnection, name: string) {
  c.on(name, (...args: unknown[]) => {
    for (const h of handlers.get(name) ?? []) (h as (...a: unknown[]) => void)(...args);
  });
}

/** The connected hub; starts it (retrying every 2.5 s) when needed. */
export function ensureStarted(): Promise<HubConnection> {
  wanted = true;
  connection ??= build();
  if (connection.state === HubConnectionState.Connected) return Promise.resolve(connection);
  starting ??= (async () => {
    const c = connection!;
    for (;;) {
      if (!wanted || connection !== c) throw new Error('The live connection was stopped.');
      if (c.state === HubConnectionState.Connected) return c;
      if (c.state === HubConnectionState.Disconnected && bearer && (await bearer()) === undefined) {
        // Cloud mode without a token (signed out): wait for one instead of knocking with a 401.
      } else if (c.state === HubConnectionState.Disconnected) {
        try {
          await c.start();
          // Rights may have changed between the sign-in's read of the user and this start: a
          // UserUpdated sent before the connection existed reached no one.
          void refreshCurrentUser();
          for (const register of registrations) register().catch(() => undefined);
          return c;
        } catch (e) {
          const status = statusOf(e);
          if (status === 401 || status === 403) {
            onAuthRefused?.();
            await refreshCurrentUser();
          }
        }
      }
      await sleep(HubRetryMs);
    }
  })();
  return starting;
}

/** Calls a hub method once the connection is up. */
export async function invoke<M extends MainHubMethodName>(method: M, ...args: MainHubArgs<M>): Promise<MainHubResult<M>> {
  const c = await ensureStarted();
  return limited(() => c.invoke<MainHubResult<M>>(method, ...args));
}

/** Subscribes to a hub event; returns the unsubscribe function. */
export function subscribe<E extends MainHubEventName>(event: E, handler: (...args: MainHubEvents[E]) => void): () => void {
  let set = handlers.get(event);
  if (!set) {
    set = new Set();
    handlers.set(event, set);
    if (connection) attach(connection, event);
  }
  set.add(handler as unknown as Handler);
  void ensureStarted().catch(() => undefined);
  return () => set!.delete(handler as unknown as Handler);
}

/**
 * Joins a hub group now and after every reconnect (RegisterForNewSamples, RegisterForComments);
 * the returned function leaves it (Unregister...). A join the server refuses as too busy (an
 * overloaded store, 503 over REST) is tried again every BusyRetryMs until it is taken or the
 * group is left: otherwise an open window would stay without live updates until the next
 * reconnect. Other refusals (rights, a deleted target) stay refused.
 */
export function keepRegistered<M extends MainHubRegistration>(
  method: M,
  unregisterMethod: (typeof MainHubRegistrations)[M],
  ...args: MainHubArgs<M>
): () => void {
  // Each join (the first, a start's, a reconnect's) starts a chain of asks; a newer chain ends
  // the older one's retries, so a reconnect during a busy wait does not ask twice as often.
  let chain = 0;
  const ask = async (mine: number): Promise<void> => {
    try {
      await invoke<MainHubRegistration>(method, ...args);
    } catch (e) {
      if (!(e instanceof Error) || !isServerBusy(e.message)) throw e;
      await sleep(BusyRetryMs);
      if (wanted && registrations.has(register) && mine === chain) return ask(mine);
    }
  };
  const register = (): Promise<void> => ask(++chain);
  registrations.add(register);
  // Not connected yet: the start (or the reconnect) joins every registration, this one with them.
  if (connection?.state === HubConnectionState.Connected) register().catch(() => undefined);
  else void ensureStarted().catch(() => undefined);
  return () => {
    registrations.delete(register);
    const c = connection;
    if (c?.state === HubConnectionState.Connected) limited(() => c.invoke(unregisterMethod, ...args)).catch(() => undefined);
  };
}

/** Ends the connection (the user signed out); the next ensureStarted builds a new one. */
export async function stopHub(): Promise<void> {
  wanted = false;
  onAuthRefused?.();
  const c = connection;
  connection = undefined;
  starting = undefined;
  await c?.stop().catch(() => undefined);
}
