// Domain events raised by services; the hub turns them into the spec's pushed events
// (spec 3 section 7.5). Services never talk to the hub directly.
import { EventEmitter } from 'node:events';

export interface DomainEvents {
  /** A summary was created, renamed or deleted in the account. */
  SummaryListChanged: [accountId: number];
  /** Targets were added to or removed from a summary, or it was renamed. */
  SummaryChanged: [accountId: number, summaryId: number];
  /** Sessions were started, closed or deleted. */
  SessionsChanged: [accountId: number];
  /** New samples or host changes of a target; rowId may carry the _h_ suffix. */
  HostUpdated: [accountId: number, sessionId: number, rowId: string, time: number];
  /** A hop's address changed. */
  RouteChanged: [accountId: number, sessionId: number, rowId: string];
  /** A comment of a target was created, updated or deleted. */
  CommentChanged: [accountId: number, sessionId: number, time: number, commentId: number];
  /** Settings (configurations) changed. */
  SettingsChanged: [accountId: number];
  /** A user's claims or password state changed, or the user was deleted. */
  UserUpdated: [accountId: number, userId: number];
  /** An agent of the account was created, renamed, deleted, connected or disconnected. */
  AgentsChanged: [accountId: number];
  /** A remote agent's link came up (its hello) or went away (alerts' agentOffline condition). */
  AgentConnection: [accountId: number, agentId: number, online: boolean];
  /** An Insights run of a session started a test (spec 3 WisdomTestProgressUpdated). */
  WisdomTestProgress: [accountId: number, sessionId: number, testTitle: string];
  /** One login session ended (sign-out); named by its token's hash. */
  SignedOut: [loginSession: string];
  /** Every login session of a user ended but `kept` (password change or reset, user deleted). */
  LoginSessionsEnded: [userId: number, kept: string | undefined];
  /** A LiveShare link was created, changed or deleted; `open`: visitors may still use it. */
  LiveShareChanged: [accountId: number, linkId: number, open: boolean];
  /** A login session started or ended impersonating another user (named by its token's hash). */
  ImpersonationChanged: [loginSession: string];
}

export class DomainEventBus extends EventEmitter<DomainEvents> {
  /**
   * The same events raised on another replica (server/cluster/event-relay.ts, with
   * HOPWATCH_REDIS_URL). Only what keeps state for this replica alone listens there (caches,
   * this replica's own hub connections): work that must happen once (alerts, audit, pushed
   * events, which the hub backplane already carries) listens with on() to this replica's own.
   */
  readonly fromPeers = new EventEmitter<DomainEvents>();

  constructor() {
    super();
    // Many hub connections and services listen; the default cap of 10 would only warn.
    this.setMaxListeners(0);
    this.fromPeers.setMaxListeners(0);
  }

  /** Listens to the event raised here or on any other replica. */
  onEverywhere<K extends keyof DomainEvents>(name: K, listener: (...args: DomainEvents[K]) => void): void {
    this.on(name, listener as never);
    this.fromPeers.on(name, listener as never);
  }

  offEverywhere<K extends keyof DomainEvents>(name: K, listener: (...args: DomainEvents[K]) => void): void {
    this.off(name, listener as never);
    this.fromPeers.off(name, listener as never);
  }
}
