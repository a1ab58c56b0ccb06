// Ingest takeover (issue 43 item 3, docs/scale.md "Ingest takeover"): on a shared PostgreSQL an
// agent's link may come to any replica, and reconnects to another when its replica dies. The
// replica it comes to learns the agent's running sessions from the store (one may have been
// started, or closed, on another replica since this one started), assigns them, and has
// ingest take them over: their state is loaded from the store with their next samples, and the
// rounds the agent sends again (its spool resends what was not acknowledged) are checked
// against the store's newest round, so nothing is counted twice and nothing is lost.
import type { IngestPipeline } from '../ingest/pipeline.js';
import type { Store } from '../store/db.js';
import { activeSessionsOfAgent } from '../targets/repository.js';
import type { TraceRunner } from '../targets/trace-runner.js';
import type { AgentLinks } from './link.js';

/** The advisory lock space of an agent's ingest ('Hopi'): held by the replica ingesting its sessions. */
export const AgentIngestLockSpace = 0x486f7069;
/** How long a replica an agent's link came to waits for the replica it left to give its sessions up (ms). */
export const TakeOverWaitMs = 30_000;

/** Who ingests an agent's sessions, cluster-wide (the leader lease's connection holds the locks). */
export interface IngestFence {
  holdExclusive(space: number, id: number, waitMs: number): Promise<boolean>;
  releaseExclusive(space: number, id: number): void;
}

export interface TakeOverDeps {
  store: Store;
  runner: TraceRunner;
  ingest: IngestPipeline;
  links: AgentLinks;
  fence?: IngestFence;
  warn?: (obj: object, msg: string) => void;
}

/**
 * The replica the link left may still be committing a batch of it (alive, cut off from its
 * agent): it holds the agent's ingest lock until it committed and gave the sessions up, so
 * this replica reads the newest stored round after that commit, not before. A replica that
 * died holds nothing (PostgreSQL drops its locks with its connection).
 */
export async function takeOverAgent(deps: TakeOverDeps, agentId: number): Promise<void> {
  if (deps.fence && !(await deps.fence.holdExclusive(AgentIngestLockSpace, agentId, TakeOverWaitMs))) {
    deps.warn?.({ agentId, waitedMs: TakeOverWaitMs }, 'agent link: the replica it left did not give its sessions up in time; taking them over anyway');
  }
  const running = await deps.store.read((q) => activeSessionsOfAgent(q, agentId));
  const ids = new Set(running.map((s) => s.id));
  for (const id of deps.links.tracesOf(agentId)) if (!ids.has(id)) deps.links.forget(id);
  // Assigned before the hello is answered: they go out in its assign, not as starts.
  for (const s of running) if (!deps.links.has(s.id)) await deps.runner.run(s);
  await deps.ingest.takeOver([...ids]);
}

/** The agent's link left this replica and its sessions were given up: another may ingest them. */
export function givenUp(deps: Pick<TakeOverDeps, 'fence'>, agentId: number): void {
  deps.fence?.releaseExclusive(AgentIngestLockSpace, agentId);
}
