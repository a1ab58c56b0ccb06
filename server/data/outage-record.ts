// The outage periods the graphs name their gaps by (issue 40 item 2, migration 20): when a
// remote agent's link went away and came back, and when the server itself was not running.
// Nothing else records either: the agent link knows only the present, and a server killed
// with SIGKILL leaves no trace of when it died, so each run moves its own "alive" mark on.
import type { Queryable, Store } from '../store/db.js';
import { LocalMachineAgentId } from '../contract/sessions.js';

/** How often a running server moves its alive mark: a server down is known to about this. */
export const ServerAliveMarkMs = 30_000;

export const OutageKind = { AgentOffline: 'agentOffline', ServerDown: 'serverDown' } as const;
export type OutageKind = (typeof OutageKind)[keyof typeof OutageKind];

/**
 * At start: the time since the last run's alive mark is a server outage (unless another
 * replica's mark is younger than two periods: the service did not stop); agent periods left
 * open by that run end at its mark (the server outage covers the rest); every remote agent is
 * offline from now until its link says hello.
 *
 * While another run's mark is that young, the agents are left as recorded: on PostgreSQL that
 * run may be a replica holding their links (it records them going away and coming back), and
 * a start here must not mark them offline (issue 42 item 1). A restart within a minute of a
 * single server's stop then records no offline period for its agents' reconnect (seconds).
 */
export async function recordServerStart(q: Queryable, nowMs: number): Promise<void> {
  const last = await q.one<{ alive: number | null }>('SELECT max(alive_at) AS alive FROM server_runs');
  const alive = last?.alive === null || last?.alive === undefined ? null : Number(last.alive);
  const anotherRunAlive = alive !== null && alive >= nowMs - 2 * ServerAliveMarkMs;
  if (alive !== null && !anotherRunAlive) {
    await q.run('INSERT INTO outage_periods (kind, agent_id, started_at, ended_at) VALUES ($1, 0, $2, $3)', [OutageKind.ServerDown, alive, nowMs]);
  }
  if (!anotherRunAlive) await markAgentsOffline(q, alive, nowMs);
  await q.run('INSERT INTO server_runs (started_at, alive_at) VALUES ($1, $1) ON CONFLICT (started_at) DO UPDATE SET alive_at = excluded.alive_at', [nowMs]);
}

/** Periods left open by the last run end at its mark; every remote agent is offline from now until its hello. */
async function markAgentsOffline(q: Queryable, alive: number | null, nowMs: number): Promise<void> {
  await q.run('UPDATE outage_periods SET ended_at = greatest(started_at, $1) WHERE kind = $2 AND ended_at IS NULL', [alive ?? nowMs, OutageKind.AgentOffline]);
  await q.run(
    'INSERT INTO outage_periods (kind, agent_id, started_at, ended_at) SELECT $1, id, $2, NULL FROM agents WHERE id <> $3',
    [OutageKind.AgentOffline, nowMs, LocalMachineAgentId],
  );
}

/** A remote agent's link came up (its open period ends) or went away (a period opens). */
export async function recordAgentConnection(q: Queryable, agentId: number, online: boolean, nowMs: number): Promise<void> {
  await q.run('UPDATE outage_periods SET ended_at = $1 WHERE kind = $2 AND agent_id = $3 AND ended_at IS NULL', [nowMs, OutageKind.AgentOffline, agentId]);
  if (!online) await q.run('INSERT INTO outage_periods (kind, agent_id, started_at, ended_at) VALUES ($1, $2, $3, NULL)', [OutageKind.AgentOffline, agentId, nowMs]);
}

/**
 * Records the server's start, its alive mark every ServerAliveMarkMs and the agents' links
 * (`subscribe` hands over AgentConnection events). Returns the stop, which sets the mark a
 * last time (a clean shutdown ends the run exactly).
 */
export async function startOutageRecord(
  store: Store,
  subscribe: (listener: (agentId: number, online: boolean) => void) => () => void,
  log: { warn: (o: object, msg: string) => void },
): Promise<() => Promise<void>> {
  const startedAt = Date.now();
  await store.exclusive((q) => recordServerStart(q, startedAt));
  const mark = () => store.exclusive((q) => q.run('UPDATE server_runs SET alive_at = $1 WHERE started_at = $2', [Date.now(), startedAt]));
  const failed = (err: unknown) => log.warn({ err }, 'recording an outage period failed');
  const timer = setInterval(() => void mark().catch(failed), ServerAliveMarkMs);
  timer.unref();
  const off = subscribe((agentId, online) => void store.exclusive((q) => recordAgentConnection(q, agentId, online, Date.now())).catch(failed));
  return async () => {
    clearInterval(timer);
    off();
    await mark().catch(failed);
  };
}
