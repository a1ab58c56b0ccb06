// Ping Server Management (/staff/pingserver-management): every probing engine's load from the
// store: the built-in Local Machine engine (agent id -1, every account's local sessions) and
// each remote agent of every account. Connected comes from the live agent links (service.ts).
import type { Queryable } from '../../store/db.js';
import { recentSampleRowsSql } from '../../store/sample-tables.js';
import { SessionState } from '../../contract/sessions.js';

export interface EngineLoadRow {
  id: number;
  uniqueId: string;
  name: string;
  accountId: number;
  accountName: string;
  version: string;
  lastMessage: number | null;
  activeSessions: number;
  samplesPerMinute: number;
}

/** Per engine (sentinel_id): sessions tracing now, and hop samples stored over the last minute. */
async function loadByEngine(q: Queryable): Promise<Map<number, { active: number; samples: number }>> {
  const active = await q.all<{ agent: number; n: number }>(
    `SELECT sentinel_id AS agent, count(*)::INTEGER AS n FROM sessions WHERE state = $1 GROUP BY sentinel_id`,
    [SessionState.Active],
  );
  // The time is epoch ms; appended in time order, so DuckDB's zone maps keep this to the newest rows.
  const samples = await q.all<{ agent: number; n: number }>(
    `SELECT s.sentinel_id AS agent, sum(x.n)::INTEGER AS n
     FROM ${recentSampleRowsSql(q)} x JOIN sessions s ON s.id = x.session_id
     WHERE x.time >= epoch_ms(now()) - 60000 GROUP BY s.sentinel_id`,
  );
  const out = new Map<number, { active: number; samples: number }>();
  for (const r of active) out.set(r.agent, { active: r.n, samples: 0 });
  for (const r of samples) out.set(r.agent, { active: out.get(r.agent)?.active ?? 0, samples: r.n });
  return out;
}

export async function engineLoads(q: Queryable): Promise<{ local: { activeSessions: number; samplesPerMinute: number }; agents: EngineLoadRow[] }> {
  const load = await loadByEngine(q);
  const agents = await q.all<Omit<EngineLoadRow, 'activeSessions' | 'samplesPerMinute'>>(
    `SELECT g.id, g.unique_id AS "uniqueId", g.name, g.account_id AS "accountId", coalesce(a.name, '') AS "accountName",
            g.version, g.last_message AS "lastMessage"
     FROM agents g LEFT JOIN accounts a ON a.id = g.account_id ORDER BY g.account_id, g.id`,
  );
  const local = load.get(-1);
  return {
    local: { activeSessions: local?.active ?? 0, samplesPerMinute: local?.samples ?? 0 },
    agents: agents.map((g) => ({
      ...g,
      lastMessage: g.lastMessage === null ? null : Number(g.lastMessage),
      activeSessions: load.get(g.id)?.active ?? 0,
      samplesPerMinute: load.get(g.id)?.samples ?? 0,
    })),
  };
}
