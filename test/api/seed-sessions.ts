// Test fixture: writes session rows straight into a stopped appliance's database, so the
// summary and comment suites do not depend on the trace engine. Imports the built store.
// Use loopback targets only: a server that resumes running sessions at start will trace them.
import { Store } from '../support/built.js';
import { openTestStore } from '../../server/store/testing/test-store.js';

export interface SeededSession {
  id: number;
  accountId: number;
  state: number;
}

/** Inserts one session per entry (accountId undefined = the first account) and returns their ids. */
export async function seedSessions(dataDir: string, rows: { target: string; state: number; accountId?: number }[]): Promise<SeededSession[]> {
  const store = await openTestStore(dataDir);
  try {
    const first = await store.one<{ id: number }>('SELECT min(id) AS id FROM accounts');
    const out: SeededSession[] = [];
    for (const r of rows) {
      const accountId = r.accountId ?? first!.id;
      const row = await store.one<{ id: number }>(
        `INSERT INTO sessions (account_id, original_target, target_name, target_ip, state, dynamic_dns_mode, trace_interval_ms, start_time)
         VALUES ($1, $2, $2, $2, $3, 0, 2500, $4) RETURNING id`,
        [accountId, r.target, r.state, Date.now()],
      );
      out.push({ id: row!.id, accountId, state: r.state });
    }
    return out;
  } finally {
    await store.close();
  }
}
