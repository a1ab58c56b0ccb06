// What a hub needs to run on several replicas (docs/hub.md "Backplane"): every send to all
// connections, to groups or to one connection ID goes through the backplane, and each replica
// delivers what comes back to its own connections, as SignalR's Redis backplane does. The hub
// knows no transport: server/cluster/hub-backplane.ts is the Redis one.

/** Whom a send is for, in terms every replica can select by: no functions, only names. */
export type Audience = { all: true } | { groups: string[] } | { connection: string };

export interface HubBackplane {
  /**
   * Hands a frame to every replica (this one included) in one order that all of them see.
   * Resolves false when the backplane cannot take it now (its service is away): the hub
   * then delivers to its own connections at once.
   */
  publish(audience: Audience, frame: string): Promise<boolean>;
  /** Frames published by any replica, this one included, in the backplane's order. */
  receive(deliver: (audience: Audience, frame: string) => void): () => void;
  /**
   * A group gained its first connection on this replica (true) or lost its last (false): a
   * backplane may bring a group's frames only to replicas with members in it.
   */
  interest(group: string, members: boolean): void;
}
