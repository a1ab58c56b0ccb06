// Helpers for the netns engine suites: gather rounds of a trace and summarise them per hop.
import type { RouteChange, TraceHandle, TraceRound } from '../../engine/index.js';

export const asRoot = process.getuid?.() === 0;

export function collectRounds(handle: TraceHandle, count: number, timeoutMs = 60_000): Promise<TraceRound[]> {
  const rounds: TraceRound[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`only ${rounds.length} of ${count} rounds`)), timeoutMs);
    handle.on('error', (e) => { clearTimeout(timer); reject(e); });
    handle.on('round', (r) => {
      // Rounds that arrive together (one delivery) after the count is reached are not this call's.
      if (r.marker || rounds.length === count) return;
      rounds.push(r);
      if (rounds.length === count) { clearTimeout(timer); resolve(rounds); }
    });
  });
}

export function nextRouteChange(handle: TraceHandle, timeoutMs = 20_000): Promise<RouteChange> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no route change')), timeoutMs);
    handle.once('routeChange', (c) => { clearTimeout(timer); resolve(c); });
  });
}

export interface HopStats {
  ttl: number;
  sent: number;
  lost: number;
  loss: number;
  /** Most frequent responding address, or null when it never answered. */
  address: string | null;
}

export function hopStats(rounds: TraceRound[]): Map<number, HopStats> {
  const by = new Map<number, { sent: number; lost: number; addrs: Map<string, number> }>();
  for (const r of rounds) {
    for (const h of r.hops) {
      const s = by.get(h.ttl) ?? { sent: 0, lost: 0, addrs: new Map() };
      s.sent++;
      if (h.reply === 'timeout') s.lost++;
      if (h.address) s.addrs.set(h.address, (s.addrs.get(h.address) ?? 0) + 1);
      by.set(h.ttl, s);
    }
  }
  const out = new Map<number, HopStats>();
  for (const [ttl, s] of [...by].sort((a, b) => a[0] - b[0])) {
    const top = [...s.addrs].sort((a, b) => b[1] - a[1])[0];
    out.set(ttl, { ttl, sent: s.sent, lost: s.lost, loss: s.lost / s.sent, address: top ? top[0] : null });
  }
  return out;
}
