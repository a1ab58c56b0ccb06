// How a hub is described: a map of method name -> { args, handler }, plus optional
// connect/disconnect hooks. Handlers get a context with the caller's connection.
import type { ArgSpec, ArgsOf, ArgsValidator } from './arguments.js';

/** An error whose message is safe to show to the caller as the completion error. */
export class HubError extends Error {
  override name = 'HubError';
}

export type TransportName = 'WebSockets' | 'LongPolling';

export interface HubLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface HubCallContext<P> {
  /** Public connection ID (what hub.clients.connection(id) takes). */
  readonly connectionId: string;
  /**
   * Who is calling: what the authenticate hook returned when this connection was opened, or
   * what the definition's currentPrincipal gave for this invocation.
   */
  readonly principal: P;
  readonly transport: TransportName;
  /** Groups of this connection; they are left automatically when it closes. */
  readonly groups: {
    join(group: string): void;
    leave(group: string): void;
    has(group: string): boolean;
    list(): string[];
  };
  readonly log: HubLogger;
}

export interface HubMethod<P> {
  /**
   * Who may call it, as data the hub's `authorize` reads (and tests and docs with it). The
   * hub itself gives it no meaning: each hub definition says what its declarations are.
   */
  readonly access?: unknown;
  /** One JSON schema per positional argument, or a function that checks the whole list. */
  readonly args: readonly ArgSpec[] | ArgsValidator;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- arguments are checked at run time before the call
  readonly handler: (ctx: HubCallContext<P>, ...args: any[]) => unknown;
}

/**
 * A method that remembers its argument and answer types, so a hub's method table can be
 * checked against a contract at compile time (HubMethodsOf). `types` is never set at run time.
 */
export interface TypedHubMethod<P, A extends unknown[], R> extends HubMethod<P> {
  // A function type, so arguments compare contravariantly: the server must accept at least
  // what the contract lets clients send, and answer no more than the contract promises.
  readonly types?: (...args: A) => R;
}

/**
 * The method table a hub needs to serve contract C (method name -> { args, result }): every
 * method of C, none other, each accepting C's arguments and answering C's result.
 * Use `{ ... } satisfies HubMethodsOf<P, C>`.
 */
export type HubMethodsOf<P, C extends Record<string, { args: unknown[]; result: unknown }>> = {
  readonly [M in keyof C]: TypedHubMethod<P, C[M]['args'], C[M]['result']>;
};

export interface HubDefinition<P> {
  readonly methods: Readonly<Record<string, HubMethod<P>>>;
  /**
   * Runs before every invocation with the principal the connection holds and returns the
   * current one (rights change while a connection stays open), or null when it no longer
   * may call anything: the invocation fails and the connection closes. Keep it cheap.
   */
  currentPrincipal?(principal: P): P | null | Promise<P | null>;
  /**
   * Runs before every invocation, after currentPrincipal, with the method's definition (its
   * `access`): throw an error with a 4xx `status` (or a HubError) to refuse the call.
   */
  authorize?(principal: P, method: HubMethod<P>, name: string): void;
  /** After the handshake; a throw here closes the connection with a generic error. */
  onConnected?(ctx: HubCallContext<P>): void | Promise<void>;
  /** After the connection closed and left its groups. */
  onDisconnected?(ctx: HubCallContext<P>, error: string | undefined): void | Promise<void>;
}

/**
 * Typed method builders for hubs whose principal type is P:
 *   const { method } = hubMethods<User>();
 *   Add: method({ args: [{ name: 'a', schema: { type: 'number' } }, ...], handler: (ctx, a, b) => a + b })
 * The handler's parameter types follow from the schemas.
 */
export function hubMethods<P, A = unknown>() {
  return {
    method<const S extends readonly ArgSpec[], R>(m: {
      access?: A;
      args: S;
      handler: (ctx: HubCallContext<P>, ...args: ArgsOf<S>) => R | Promise<R>;
    }): TypedHubMethod<P, ArgsOf<S>, Awaited<R>> {
      return m as unknown as TypedHubMethod<P, ArgsOf<S>, Awaited<R>>;
    },
    /** For argument lists a schema per position cannot express: validate returns an error text. */
    validated<Args extends unknown[], R>(
      validate: ArgsValidator,
      handler: (ctx: HubCallContext<P>, ...args: Args) => R | Promise<R>,
      access?: A,
    ): TypedHubMethod<P, Args, Awaited<R>> {
      return { access, args: validate, handler: handler as HubMethod<P>['handler'] };
    },
  };
}
