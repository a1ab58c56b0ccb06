// After a reconnect the agent resends its spool in order, each batch once, reading it from
// disk a few at a time: never more than ResendWindowBytes (or one batch) sent and not yet
// acknowledged, so a spool of days fits neither in memory nor in the socket at once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentProgram, ResendWindowBytes } from './program.js';
import { wireRoundText } from './protocol.js';
import { Spool } from './spool.js';
import { BatchBuffer } from './batch-buffer.js';
import { AgentState } from './state.js';
import type { TraceHop } from '../engine/index.js';
import { agentLinkServer, noTraceEngine } from '../test/support/agent-link-server.js';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const Batches = 40;
const RoundsPerBatch = 300;
const hops: TraceHop[] = Array.from({ length: 30 }, (_, i) => ({ ttl: i + 1, address: `10.0.${i}.1`, name: null, rtt: 1 + i / 10, reply: 'timeExceeded' }));

describe('agent spool resend', () => {
  it('resends every spooled batch once, in order, within the window', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hopwatch-resend-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const state = new AgentState(dir);
    const spool = new Spool(state.spoolDir, undefined, () => undefined);
    for (let b = 0; b < Batches; b++) {
      const batch = new BatchBuffer();
      for (let k = 0; k < RoundsPerBatch; k++) batch.add(wireRoundText(7, { time: 1_000_000 + (b * RoundsPerBatch + k) * 1000, hops }));
      spool.append(batch);
    }
    const batchBytes = spool.bytesOf(1);
    // The test is only worth something if the spool is several windows long.
    expect(batchBytes * Batches).toBeGreaterThan(2 * ResendWindowBytes);

    const server = await agentLinkServer();
    cleanups.push(() => server.close());
    const wss = server.wss;

    const received: number[] = [];
    let unacked: { seq: number; bytes: number }[] = [];
    let most = 0;
    const done = new Promise<void>((resolve) => {
      wss.on('connection', (ws) => {
        // Acknowledged slowly, one at a time: the agent must wait for room, not send everything.
        const timer = setInterval(() => {
          const next = unacked.shift();
          if (next) ws.send(JSON.stringify({ t: 'ack', seq: next.seq }));
          if (received.length === Batches && unacked.length === 0) {
            clearInterval(timer);
            resolve();
          }
        }, 10);
        cleanups.push(() => clearInterval(timer));
        ws.on('message', (data) => {
          const m = JSON.parse(data.toString()) as { t: string; seq?: number };
          if (m.t === 'hello') ws.send(JSON.stringify({ t: 'assign', traces: [], lastSeq: 0 }));
          if (m.t === 'batch') {
            received.push(m.seq!);
            unacked.push({ seq: m.seq!, bytes: spool.bytesOf(m.seq!) });
            most = Math.max(most, unacked.reduce((n, u) => n + u.bytes, 0));
          }
        });
      });
    });

    const program = new AgentProgram(server.creds, { state, engine: noTraceEngine, mode: 2, log: () => undefined });
    cleanups.push(() => program.stop());
    await program.start();
    await done;

    expect(received).toEqual(Array.from({ length: Batches }, (_, i) => i + 1));
    expect(most).toBeLessThanOrEqual(ResendWindowBytes + batchBytes);
    expect(most).toBeGreaterThan(batchBytes); // more than one at a time: the window is used
    // The last acknowledgement is on its way: the spool empties once it arrives.
    for (let i = 0; i < 100 && program.spooled > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(program.spooled).toBe(0);
    unacked = [];
  }, 60_000);
});
