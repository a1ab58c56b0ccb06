// The hosts table (each hop's address and reverse name) as ingest writes it: a hop that
// answers from the address the table holds is not written again (its updated_at stays), a
// changed address is, a new address without a name clears the old name, the same address
// without one keeps it, and a finished session's hops are written afresh when it runs again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { insertActiveSession } from './testing/sessions.js';

import { DomainEventBus, IngestPipeline, Store } from '../../test/support/built.js';
import { openTestStore } from '../store/testing/test-store.js';
import { listParam } from '../store/id-list.js';

const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);
const dir = mkdtempSync(join(tmpdir(), 'hopwatch-hosts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Row = { hop: number; address: string; dns_name: string; updated_at: bigint | number };

const pause = () => new Promise((r) => setTimeout(r, 5));

describe('hosts written by ingest', () => {
  it('writes a hop again only when its address or name changed', async () => {
    const store = await openTestStore(dir);
    const ingest = new IngestPipeline(store, new DomainEventBus());
    try {
      await ingest.init();
      const account = (await store.one<{ id: number }>(`INSERT INTO accounts (name) VALUES ('hosts') RETURNING id`))!;
      const sid = await insertActiveSession(store, account.id, 'hosts', T0);
      ingest.openSession(sid, account.id);
      const rows = async () => new Map((await store.all<Row>('SELECT hop, address, dns_name, updated_at FROM hosts WHERE session_id = $1', [sid])).map((r) => [r.hop, r]));
      const round = async (time: number, hops: [number, string, string][]) => {
        for (const [hop, address, dnsName] of hops) {
          ingest.add(sid, time, hop, 1);
          ingest.seeHost({ sessionId: sid, hop, address, dnsName });
        }
        await ingest.commit();
      };

      await round(T0, [[1, '10.0.0.1', 'gw.example'], [2, '10.0.0.2', 'core.example'], [3, '10.0.0.3', 'edge.example']]);
      const first = await rows();
      expect([...first.values()].map((r) => [r.hop, r.address, r.dns_name]).sort()).toEqual([
        [1, '10.0.0.1', 'gw.example'],
        [2, '10.0.0.2', 'core.example'],
        [3, '10.0.0.3', 'edge.example'],
      ]);

      // Same addresses (names not resolved again: empty): nothing is written.
      await pause();
      await round(T0 + 1000, [[1, '10.0.0.1', ''], [2, '10.0.0.2', 'core.example'], [3, '10.0.0.3', '']]);
      const second = await rows();
      for (const hop of [1, 2, 3]) expect(second.get(hop)).toEqual(first.get(hop));

      // Hop 2 answers from another address without a name: written, the old name cleared.
      // Hop 3 gets a new name for the same address: written.
      await pause();
      await round(T0 + 2000, [[1, '10.0.0.1', ''], [2, '10.0.0.9', ''], [3, '10.0.0.3', 'edge2.example']]);
      const third = await rows();
      expect(third.get(1)).toEqual(first.get(1));
      expect([third.get(2)!.address, third.get(2)!.dns_name]).toEqual(['10.0.0.9', '']);
      expect(Number(third.get(2)!.updated_at)).toBeGreaterThan(Number(first.get(2)!.updated_at));
      expect([third.get(3)!.address, third.get(3)!.dns_name]).toEqual(['10.0.0.3', 'edge2.example']);

      // Back to the first address within one flush after a change that was never written: the table holds it.
      await pause();
      ingest.seeHost({ sessionId: sid, hop: 1, address: '10.0.0.7', dnsName: '' });
      await round(T0 + 3000, [[1, '10.0.0.1', '']]);
      expect((await rows()).get(1)!.address).toBe('10.0.0.1');

      // Finished, then running again (a restarted trace): its hops are written afresh.
      await ingest.finishSession(sid);
      ingest.openSession(sid, account.id);
      await pause();
      await round(T0 + 4000, [[1, '10.0.0.1', '']]);
      const again = (await rows()).get(1)!;
      expect([again.address, again.dns_name]).toEqual(['10.0.0.1', 'gw.example']);
      expect(Number(again.updated_at)).toBeGreaterThan(Number(first.get(1)!.updated_at));
    } finally {
      await ingest.close();
      await store.close();
    }
  });

  it('writes the hops of many sessions in one flush (more than one statement of them)', async () => {
    const store = await openTestStore(dir);
    const ingest = new IngestPipeline(store, new DomainEventBus());
    try {
      await ingest.init();
      const account = (await store.one<{ id: number }>(`INSERT INTO accounts (name) VALUES ('many') RETURNING id`))!;
      const ids: number[] = [];
      for (let s = 0; s < 25; s++) {
        const sid = await insertActiveSession(store, account.id, `many-${s}`, T0);
        ingest.openSession(sid, account.id);
        ids.push(sid);
      }
      for (const sid of ids) {
        for (let hop = 1; hop <= 30; hop++) {
          ingest.add(sid, T0, hop, 1);
          ingest.seeHost({ sessionId: sid, hop, address: `10.${sid % 250}.0.${hop}`, dnsName: `h${hop}.s${sid}.example` });
        }
      }
      await ingest.commit();
      const stored = await store.all<{ session_id: number; hop: number; address: string; dns_name: string }>(
        `SELECT session_id, hop, address, dns_name FROM hosts WHERE list_contains($1::INTEGER[], session_id)`,
        [listParam(ids)],
      );
      expect(stored).toHaveLength(750);
      for (const r of stored) {
        expect(r.address).toBe(`10.${r.session_id % 250}.0.${r.hop}`);
        expect(r.dns_name).toBe(`h${r.hop}.s${r.session_id}.example`);
      }
    } finally {
      await ingest.close();
      await store.close();
    }
  });
});
