// Issue 39 item 8, the agent's side: a batch the server explicitly refused (`refused`, with the
// reason) is dropped from the spool with a log line naming the reason, the next batches go on
// as usual, and the refused one is never sent again, after a restart of the agent either (a
// batch the server cannot store by its content would otherwise come back with every start).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentProgram } from './program.js';
import { wireRoundText } from './protocol.js';
import { Spool } from './spool.js';
import { BatchBuffer } from './batch-buffer.js';
import { AgentState } from './state.js';
import { agentLinkServer, noTraceEngine } from '../test/support/agent-link-server.js';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const hops = [{ ttl: 1, address: '10.0.0.1', name: null, rtt: 1, reply: 'timeExceeded' as const }];
const Refusal = 'A round of session 7: Time 8639999999999999 is more than a day ahead of the server\'s clock; check the agent machine\'s clock. The batch was not stored.';

describe('agent: a batch the server refused', () => {
  it('is dropped with a log line, the next ones are delivered, and it is not sent again after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hopwatch-refused-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const state = new AgentState(dir);
    // Four batches spooled while the server was away (one segment file).
    const spool = new Spool(state.spoolDir, undefined, () => undefined);
    for (let b = 0; b < 4; b++) {
      const batch = new BatchBuffer();
      batch.add(wireRoundText(7, { time: Date.now() - 10_000 + b * 1000, hops }));
      spool.append(batch);
    }
    spool.close();

    // The server refuses the first and the third, commits the second, and has not answered
    // the fourth when the agent stops (so the segment file stays, holding the refused third).
    const server = await agentLinkServer();
    cleanups.push(() => server.close());
    const received: number[] = [];
    server.wss.on('connection', (ws) => {
      ws.on('message', (data) => {
        const m = JSON.parse(data.toString()) as { t: string; seq?: number };
        if (m.t === 'hello') ws.send(JSON.stringify({ t: 'assign', traces: [], lastSeq: 0 }));
        if (m.t !== 'batch') return;
        received.push(m.seq!);
        if (m.seq !== 4) ws.send(JSON.stringify(m.seq === 2 ? { t: 'ack', seq: 2 } : { t: 'refused', seq: m.seq, Error: Refusal }));
      });
    });

    const log: string[] = [];
    const program = new AgentProgram(server.creds, { state, engine: noTraceEngine, mode: 2, log: (m) => log.push(m) });
    cleanups.push(() => program.stop());
    await program.start();
    for (let i = 0; i < 250 && (received.length < 4 || program.spooled > 1); i++) await new Promise((r) => setTimeout(r, 20));
    expect(received).toEqual([1, 2, 3, 4]);
    expect(program.spooled).toBe(1);
    expect(log.filter((l) => l.includes('refused batch'))).toEqual([
      expect.stringMatching(/^the server refused batch 1 \(dropped, not sent again\): A round of session 7/),
      expect.stringMatching(/^the server refused batch 3 \(dropped, not sent again\): A round of session 7/),
    ]);

    // The agent restarts: only the unanswered batch is left to send, none of the refused ones.
    await program.stop();
    expect(new Spool(state.spoolDir, undefined, () => undefined).pendingSeqs()).toEqual([4]);
  }, 30_000);
});
