// Settings > General "Dynamic DNS update mode" Auto (spec 2: Session DynamicDnsMode Off 0,
// Auto 1): a running target named by a DNS name follows its name. Every
// HOPWATCH_DYNAMIC_DNS_SECONDS (300) each such trace resolves its name again where it runs
// (the engine's resolver on the Local Machine, the agent's own on a remote agent); a new
// address moves the trace there at once and becomes the session's TargetIP. Off targets
// (and targets named by an IP address) keep the address they started with.
import type { FastifyBaseLogger } from 'fastify';
import { SessionState } from '../contract/sessions.js';
import type { DomainEventBus } from '../events.js';
import type { Store } from '../store/db.js';
import { sessionsInStates, setSessionTargetIp } from './repository.js';
import type { TraceRunner } from './trace-runner.js';

export interface DynamicDnsDeps {
  store: Store;
  runner: TraceRunner;
  events: DomainEventBus;
  log: FastifyBaseLogger;
}

/** Resolves every running Auto target's name again; answers how many moved to a new address. */
export async function followNames(deps: DynamicDnsDeps): Promise<number> {
  const running = await deps.store.read((q) => sessionsInStates(q, [SessionState.Active]));
  let moved = 0;
  for (const s of running) {
    if (s.dynamicDnsMode !== 1 || !s.targetName || !deps.runner.agent.has(s.id)) continue;
    let address: string | undefined;
    try {
      address = await deps.runner.agent.reResolve(s.id);
    } catch (err) {
      // The name does not resolve just now: the trace keeps its address and tries again next time.
      deps.log.warn({ sessionId: s.id, target: s.targetName, msg: (err as Error).message }, 'dynamic DNS: name not resolved');
      continue;
    }
    if (!address || address === s.targetIp) continue;
    // Only while it still runs: a target paused or closed while its name was being resolved is
    // left alone (the pass after a resume records where the trace went).
    if (!(await deps.store.exclusive((q) => setSessionTargetIp(q, s.id, address, SessionState.Active)))) continue;
    deps.log.info({ sessionId: s.id, target: s.targetName, previous: s.targetIp, address }, 'dynamic DNS: target follows its name to a new address');
    deps.events.emit('SessionsChanged', s.accountId);
    moved++;
  }
  return moved;
}

/** Starts the timer; the answer stops it (and waits for a pass under way). */
export function startDynamicDns(deps: DynamicDnsDeps, everyMs: number): () => Promise<void> {
  let pass: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    // One pass at a time: a slow resolver never piles passes up.
    pass ??= followNames(deps)
      .catch((err: Error) => deps.log.error({ msg: err.message }, 'dynamic DNS pass failed'))
      .finally(() => (pass = undefined));
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await pass;
  };
}
