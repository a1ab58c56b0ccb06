// The agent link's heartbeat (issue 40, docs/agents.md "Heartbeat"), the same on both ends:
// each end sends a WebSocket ping every HeartbeatIntervalMs and declares the link dead when it
// has heard nothing from the other end (no pong, no ping, no data) for HeartbeatDeadAfterMs,
// then terminates the socket (no closing handshake: there is no one to answer it). A silent
// drop (no FIN, no RST) is then seen 12 to 20 s after it happened, instead of never: the last
// thing heard was at most one interval before the drop (the goal: OFFLINE within 30 s). ws answers pings by itself (autoPong),
// so agents older than this heartbeat are still judged by the server.
//
// The silence is judged at every tick of one timer (HeartbeatTickMs). A tick that comes late
// (the process stalled or was suspended) judges nothing: what the other end sent meanwhile may
// still wait in the socket, read only after the timer's turn of the event loop.

/** A ping is sent when nothing was sent as a ping for this long. */
export const HeartbeatIntervalMs = 8_000;
/** Silence after which the link is dead: two pings went unanswered, the first for 12 s, the second for 4 s. */
export const HeartbeatDeadAfterMs = 20_000;
/** How often the silence is judged. */
export const HeartbeatTickMs = 1_000;
/** A tick this much later than due means this process stalled: the silence is not judged then. */
export const HeartbeatStallMs = 3 * HeartbeatTickMs;

/** One end's view of one link. */
export interface HeartbeatPeer {
  /** When anything was last heard from the other end (ms since the epoch). */
  lastHeard: number;
  /** When this end last sent a ping. */
  lastPing: number;
}

export type HeartbeatStep = 'dead' | 'ping' | 'wait';

/** What to do with a link now: terminate it, ping it, or nothing. */
export function heartbeatStep(peer: HeartbeatPeer, now: number, judge = true): HeartbeatStep {
  if (judge && now - peer.lastHeard >= HeartbeatDeadAfterMs) return 'dead';
  if (now - peer.lastPing >= HeartbeatIntervalMs) return 'ping';
  return 'wait';
}

/** The silence in whole seconds, for the reason a dead link is closed with. */
export const silenceText = (peer: HeartbeatPeer, now: number) => `nothing heard for ${Math.round((now - peer.lastHeard) / 1000)} s (heartbeat)`;

/**
 * Calls `each` every HeartbeatTickMs with the time and whether silences may be judged at this
 * tick (false after a stall of this process). Does not keep the process alive.
 */
export class HeartbeatTicker {
  private timer: NodeJS.Timeout | undefined;
  private last = 0;

  constructor(private readonly each: (now: number, judge: boolean) => void) {}

  start(): void {
    if (this.timer) return;
    this.last = Date.now();
    this.timer = setInterval(() => this.tick(Date.now()), HeartbeatTickMs);
    this.timer.unref();
  }

  /** One tick at `now` (the timer's; tests call it with their own clock). */
  tick(now: number): void {
    const judge = now - this.last <= HeartbeatTickMs + HeartbeatStallMs;
    this.last = now;
    this.each(now, judge);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
