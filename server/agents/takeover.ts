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

export interface TakeOverDeps {
  store: Store;
  runner: TraceRunner;
  ingest: IngestPipeline;
  links: AgentLinks;
}

export async function takeOverAgent(deps: TakeOverDeps, agentId: number): Promise<void> {
  const running = await deps.store.read((q) => activeSessionsOfAgent(q, agentId));
  const ids = new Set(running.map((s) => s.id));
  for (const id of deps.links.tracesOf(agentId)) if (!ids.has(id)) deps.links.forget(id);
  // Assigned before the hello is answered: they go out in its assign, not as starts.
  for (const s of running) if (!deps.links.has(s.id)) await deps.runner.run(s);
  await deps.ingest.takeOver([...ids]);
}
