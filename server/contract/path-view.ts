// The Path view (issue 44; docs/path-view.md): every route to a target (or to every target of
// a summary), from every agent, as one graph over a time range, built from the hop hosts
// (per minute, each hop's answering addresses) and the hops' statistics. Typed once here for
// the REST call (GET /api/path/PathView), the hub method PathView and the console.
import type { LossNotOnPath } from './hop-loss.js';
import type { MplsLabelDetails } from './hop-details.js';

/** What the view is of: one target, or every target of a summary. */
export const PathViewKind = ['Target', 'Summary'] as const;
export type PathViewKind = (typeof PathViewKind)[number];

/** The longest range one call reads (the console's longest graph range is 30 days). */
export const MaxPathViewRangeMs = 31 * 24 * 3600_000;

/** Agent: a path's start. Router: an address seen at a hop. Silent: a hop that never answered between answering neighbours. Target: a target's own address. */
export type PathNodeKind = 'Agent' | 'Router' | 'Silent' | 'Target';

/** One agent's (one target's trace's) figures at a node. */
export interface PathNodeAgentFigures {
  SessionId: number;
  AgentName: string;
  Hop: number;
  /** The hop's average latency over the range (ms), null when it never answered. */
  LatencyMs: number | null;
  /** The hop's loss over the range (percent), null when nothing was sent. */
  LossPercent: number | null;
  /** This address's share of the hop's answers (percent). */
  SharePercent: number;
}

export interface PathNode {
  /** Stable across ranges: `agent:<id>`, `ip:<address>`, `silent:<before>><after>#<n>`. */
  Id: string;
  Kind: PathNodeKind;
  /** The address (Router, Target), null for Agent and Silent nodes. */
  Address: string | null;
  /** Agent name, DNS name or target name; '' when none. */
  Name: string;
  Asn: number | null;
  AsName: string | null;
  Country: string | null;
  /** A special range's name ('Private'...), null for a public address. */
  Special: string | null;
  Mpls: MplsLabelDetails[];
  /** Per agent whose path crosses the node: its hop there, latency, loss and share. */
  Agents: PathNodeAgentFigures[];
  /** The loss (percent) that starts here on some agent's path (the shared rule), null when none starts here. */
  LossStartPercent: number | null;
  /** Why loss shown at this node is not loss on the path, null when it is (or there is none). */
  MutedLoss: LossNotOnPath | null;
  /** The sessions (traces) whose paths cross the node. */
  SessionIds: number[];
}

export interface PathEdge {
  From: string;
  To: string;
  /** Minutes in which the two hops were seen together, summed over the agents' traces. */
  Weight: number;
  /** Latency added across the edge (ms, average over the traces crossing it), null when unknown. */
  AddedLatencyMs: number | null;
  SessionIds: number[];
}

/** A hop's address set changed (docs/path-view.md "Route changes"). */
export interface PathRouteChange {
  /** Start of the minute of the change (ISO). */
  Time: string;
  SessionId: number;
  AgentName: string;
  TargetId: string;
  Hop: number;
  Old: string[];
  New: string[];
}

/** One interval of the time strip: the selection's loss and latency at the targets. */
export interface PathStripInterval {
  Start: string;
  /** Lost / sent at the targets over the traces, percent; null when nothing was sent. */
  LossPercent: number | null;
  /** Mean of the traces' average latency at their targets (ms), null when none answered. */
  LatencyMs: number | null;
}

/** One traced target of the view (a summary has several). */
export interface PathSession {
  SessionId: number;
  TargetId: string;
  AgentId: number;
  AgentName: string;
  TargetAddress: string;
  TargetName: string;
  /** The node that ends this trace's path (the target's address node), null when it never answered. */
  TargetNodeId: string | null;
}

export interface PathView {
  Kind: PathViewKind;
  ID: string;
  Start: string;
  End: string;
  Sessions: PathSession[];
  Nodes: PathNode[];
  Edges: PathEdge[];
  RouteChanges: PathRouteChange[];
  StripIntervalSeconds: number;
  Strip: PathStripInterval[];
}
