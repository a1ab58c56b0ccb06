// What the agent links need from the other replicas when this server is one of several
// (issue 43; docs/agents.md "Several replicas"): each command for an agent's traces reaches
// every replica (all keep the same assignments, so whichever one the agent links to next
// hands it the right traces; the one holding its link sends it), re-resolve requests go to
// the replica holding the link and come back, and which agents are linked anywhere.
// server/cluster/agent-peers.ts implements it over Redis.
import type { AssignedTrace, ServerMessage } from '../../agent/protocol.js';

export type LinkCommand =
  | { t: 'run'; agentId: number; trace: AssignedTrace }
  | { t: 'stop'; traceId: number }
  /**
   * A change of a running trace (pause, resume, interval, final hop): the assignment as it is
   * now, and the message for the agent. A replica that did not hold the assignment (it started
   * while the trace was paused) takes it and starts the trace on the agent instead.
   */
  | { t: 'update'; agentId: number; trace: AssignedTrace; message: ServerMessage }
  | { t: 'disconnect'; agentId: number; uninstall: boolean; reason: string };

export interface LinkedAgent {
  agentId: number;
  interfaces?: { ID: string; Name: string }[];
}

export interface LinkPeers {
  /** Hands a command to every other replica. */
  broadcast(command: LinkCommand): void;
  /** Commands other replicas broadcast, and re-resolve requests for links held here. */
  serve(handlers: { command(command: LinkCommand): void; reResolve(traceId: number): Promise<string | undefined> }): void;
  /** Asks the replica holding the agent's link; undefined when none holds it or none answers in time. */
  reResolve(agentId: number, traceId: number): Promise<string | undefined>;
  /** The agents linked here now (introduced), kept fresh for the others by this replica. */
  linkedHere(agents: () => LinkedAgent[]): void;
  /** An agent's link here came up or went: the others learn it at once. */
  changed(agentId: number): void;
  /** The agents linked to other replicas, as last heard (bounded staleness: the presence TTL). */
  elsewhere(): ReadonlyMap<number, LinkedAgent>;
  close(): Promise<void>;
}
