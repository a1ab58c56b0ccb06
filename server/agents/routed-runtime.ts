// Sends each trace to the agent its session names: the in-process Local Machine runtime
// (agent ID -1) or a remote agent over its link. Offers the AgentRuntime calls the targets
// service uses, so that service does not care where a trace runs.
import type { AgentRuntime, AgentTraceSpec } from '../../agent/runtime.js';
import { LocalMachineAgentId } from '../contract/sessions.js';
import type { AgentLinks } from './link.js';

/**
 * Where the Local Machine's traces run (issue 43 item 2, docs/scale.md "Once-only work"): on
 * the embedded appliance always here; with several replicas on one PostgreSQL on the leader
 * only. A replica that is not the leader leaves them to it and tells it something changed.
 */
export interface LocalMachinePlace {
  here(): boolean;
  /** A Local Machine session was started, changed or stopped on a replica that does not run it. */
  changed(): void;
}

const AlwaysHere: LocalMachinePlace = { here: () => true, changed: () => undefined };

export class RoutedRuntime {
  private remote: AgentLinks | undefined;
  private place: LocalMachinePlace = AlwaysHere;

  constructor(readonly local: AgentRuntime) {}

  /** The Local Machine runs where `place` says from now on (the leader, on a shared PostgreSQL). */
  placeLocalMachine(place: LocalMachinePlace): void {
    this.place = place;
  }

  /** A trace the Local Machine runs, on a replica that is not running it: left to the leader. */
  private elsewhere(traceId: number): boolean {
    if (this.isRemote(traceId) || this.local.has(traceId) || this.place.here()) return false;
    this.place.changed();
    return true;
  }

  /** Remote agents are reached from now on (the agents plugin attaches its links). */
  attach(links: AgentLinks): void {
    this.remote = links;
  }

  get links(): AgentLinks | undefined {
    return this.remote;
  }

  private isRemote(traceId: number): boolean {
    return this.remote?.has(traceId) ?? false;
  }

  has(traceId: number): boolean {
    return this.local.has(traceId) || this.isRemote(traceId);
  }

  get size(): number {
    return this.local.size;
  }

  /** Answers false when the trace was left to the leader (a Local Machine trace on a replica that does not run them). */
  async run(spec: AgentTraceSpec & { agentId?: number }): Promise<boolean> {
    const agentId = spec.agentId ?? LocalMachineAgentId;
    if (agentId === LocalMachineAgentId) {
      // It may have run on a remote agent until now (its configuration changed to a remote-server one).
      if (this.isRemote(spec.traceId)) this.remote!.stop(spec.traceId);
      if (!this.place.here()) {
        this.place.changed();
        return false;
      }
      await this.local.run(spec);
      return true;
    }
    if (!this.remote) throw new Error('Remote agents are not available on this server.');
    await this.local.stop(spec.traceId);
    this.remote.run(agentId, spec);
    return true;
  }

  pause(traceId: number): void {
    if (this.elsewhere(traceId)) return;
    if (this.isRemote(traceId)) this.remote!.pause(traceId);
    else this.local.pause(traceId);
  }

  resume(traceId: number): void {
    if (this.elsewhere(traceId)) return;
    if (this.isRemote(traceId)) this.remote!.resume(traceId);
    else this.local.resume(traceId);
  }

  setInterval(traceId: number, intervalMs: number): void {
    if (this.elsewhere(traceId)) return;
    if (this.isRemote(traceId)) this.remote!.setInterval(traceId, intervalMs);
    else this.local.setInterval(traceId, intervalMs);
  }

  setFinalHopOnly(traceId: number, on: boolean): void {
    if (this.elsewhere(traceId)) return;
    if (this.isRemote(traceId)) this.remote!.setFinalHopOnly(traceId, on);
    else this.local.setFinalHopOnly(traceId, on);
  }

  async reResolve(traceId: number): Promise<string | undefined> {
    if (this.isRemote(traceId)) return this.remote!.reResolve(traceId);
    return this.local.reResolve(traceId);
  }

  /**
   * TTLs whose newest probe is still out (Pending). Local Machine traces only: a remote agent's
   * rounds reach the server once complete, and asking it per read would cost a network trip.
   */
  async waitingTtls(traceId: number): Promise<number[]> {
    if (this.isRemote(traceId)) return [];
    return this.local.waitingTtls(traceId);
  }

  async stop(traceId: number): Promise<void> {
    if (this.elsewhere(traceId)) return;
    if (this.isRemote(traceId)) this.remote!.stop(traceId);
    else await this.local.stop(traceId);
  }

  async stopAll(): Promise<void> {
    await this.local.stopAll();
  }
}
