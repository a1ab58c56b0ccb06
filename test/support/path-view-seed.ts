// Test and benchmark fixture for the Path view (issue 44): `agents` agents tracing one
// service through `hops` hops over a range, written into a stopped appliance's database: the
// samples through the real ingest pipeline (test/api/seed-history.ts), the agents, and the hop
// hosts minute by minute (hop_hosts, as the ingest's tally stores them). Each agent has its own
// routers (in its own AS) until the last 3 hops, which every path shares; every 5th own hop is
// load-balanced over two routers; agent 3's hop 10 changes router at `changeAt`. The traces are
// paused, so the appliance never probes these addresses. Imports the built store.
import { seedHistories } from '../api/seed-history.js';
import { Store } from './built.js';

export interface PathViewSeed {
  sessionIds: number[];
  agentIds: number[];
  summaryId: number;
  from: number;
  to: number;
  /** The minute agent 3's hop 10 changed router. */
  changeAt: number;
  /** The target's address (all traces). */
  target: string;
}

export const SharedHops = 3;

export async function seedPathView(dataDir: string, o: { agents: number; hops: number; from: number; to: number; intervalMs: number }): Promise<PathViewSeed> {
  const histories = Array.from({ length: o.agents }, (_, i) => ({ target: 'service.example.test', state: 1, hops: o.hops, from: o.from, to: o.to, intervalMs: o.intervalMs, seed: 1000 + i }));
  const sessionIds = await seedHistories(dataDir, histories);
  const changeAt = Math.floor((o.from + (o.to - o.from) * 0.6) / 60_000) * 60_000;
  const store = await Store.open(dataDir);
  try {
    const account = (await store.one<{ id: number }>('SELECT min(id) AS id FROM accounts'))!.id;
    const agentIds: number[] = [];
    for (let a = 1; a <= o.agents; a++) {
      const row = await store.one<{ id: number }>(
        `INSERT INTO agents (account_id, unique_id, name, created_at, mode) VALUES ($1, $2, $3, $4, 0) RETURNING id`,
        [account, `path-view-agent-${a}`, `Site ${a}`, o.from],
      );
      agentIds.push(Number(row!.id));
      await store.run('UPDATE sessions SET sentinel_id = $2 WHERE id = $1', [sessionIds[a - 1], row!.id]);
    }
    const first = Math.ceil(o.from / 60_000) * 60_000;
    const last = o.hops;
    await store.run(
      `INSERT INTO hop_hosts (session_id, hop, address, minute, answers, details)
       SELECT sid, hop, address, minute::DOUBLE, 60 / len(addresses), CASE WHEN minute = $3 THEN details ELSE NULL END
       FROM (
         SELECT sid, hop, minute, addresses, unnest(addresses) AS address,
           CASE WHEN hop > $5 - ${SharedHops} THEN '{"a":64999,"n":"TRANSIT","c":"NL"}' ELSE '{"a":' || (64500 + a) || ',"n":"SITE' || a || '","c":"DE"}' END AS details
         FROM (
           SELECT s.sid, s.a, h.range AS hop, m.range AS minute,
             CASE
               WHEN h.range = $5 THEN ['10.251.0.' || $5]
               WHEN h.range > $5 - ${SharedHops} THEN ['10.250.' || h.range || '.1']
               WHEN s.a = 3 AND h.range = 10 AND m.range >= $6 THEN ['10.3.10.9']
               WHEN h.range % 5 = 0 THEN ['10.' || s.a || '.' || h.range || '.1', '10.' || s.a || '.' || h.range || '.2']
               ELSE ['10.' || s.a || '.' || h.range || '.1']
             END AS addresses
           FROM (SELECT unnest($1::INTEGER[]) AS sid, unnest($2::INTEGER[]) AS a) s, range(1, $5 + 1) h, range($3::BIGINT, $4::BIGINT, 60000) m
         )
       )`,
      [`[${sessionIds.join(',')}]`, `[${sessionIds.map((_, i) => i + 1).join(',')}]`, first, o.to, last, changeAt],
    );
    const summary = await store.one<{ id: number }>(`INSERT INTO summaries (account_id, name, created_at) VALUES ($1, 'Service from every site', $2) RETURNING id`, [account, o.from]);
    for (const id of sessionIds) await store.run('INSERT INTO summary_members (summary_id, session_id, added_at) VALUES ($1, $2, $3)', [summary!.id, id, o.from]);
    return { sessionIds, agentIds, summaryId: Number(summary!.id), from: o.from, to: o.to, changeAt, target: `10.251.0.${o.hops}` };
  } finally {
    await store.close();
  }
}

declare global {
  interface Window {
    /** The Path view's draw times (web/src/path/PathPanel.tsx), read in the browser. */
    __hopwatchPathDraws?: { ms: number; layoutMs: number; layoutRan: boolean; orderSwept: boolean; nodes: number }[];
  }
}
