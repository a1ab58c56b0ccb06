// Sends each trace to the agent its session names: the in-process Local Machine runtime
// (agent ID -1) or a remote agent over its link. Offers the AgentRuntime calls the targets
// service uses, so that service does not care where a trace runs.
import type { AgentRuntime, AgentTraceSpec } from '../../agent/runtime.js';
import { LocalMachineAgentId } from '../contract/sessions.js';
import type { AgentLinks } from './link.js';

export class RoutedRuntime {
  private remote: AgentLinks | undefined;

  constructor(readonly local: AgentRuntime) {}

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

  async run(spec: AgentTraceSpec & { agentId?: number }): Promise<void> {
    const agentId = spec.agentId ?? LocalMachineAgentId;
    if (agentId === LocalMachineAgentId) {
      // It may have run on a remote agent until now (its configuration changed to a remote-server one).
      if (this.isRemote(spec.traceId)) this.remote!.stop(spec.traceId);
      await this.local.run(spec);
      return;
    }
    if (!this.remote) throw new Error('Remote agents are not available on this server.');
    await this.local.stop(spec.traceId);
    this.remote.run(agentId, spec);
  }

  pause(traceId: number): void {
    if (this.isRemote(traceId)) this.remote!.pause(traceId);
    else this.local.pause(traceId);
  }

  resume(traceId: number): void {
    if (this.isRemote(traceId)) this.remote!.resume(traceId);
    else this.local.resume(traceId);
  }

  setInterval(traceId: number, intervalMs: number): void {
    if (this.isRemote(traceId)) this.remote!.setInterval(traceId, intervalMs);
    else this.local.setInterval(traceId, intervalMs);
  }

  setFinalHopOnly(traceId: number, on: boolean): void {
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
    if (this.isRemote(traceId)) this.remote!.stop(traceId);
    else await this.local.stop(traceId);
  }

  async stopAll(): Promise<void> {
    await this.local.stopAll();
  }
}
