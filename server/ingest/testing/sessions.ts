// For ingest tests: an active session row with the columns the pipeline and the queries read.
import type { Queryable } from '../../store/db.js';

export async function insertActiveSession(
  q: Pick<Queryable, 'one'>,
  accountId: number,
  name: string,
  startTime: number,
  opts: { intervalMs?: number; targetIp?: string } = {},
): Promise<number> {
  const row = await q.one<{ id: number }>(
    `INSERT INTO sessions (account_id, original_target, target_name, target_ip, state, dynamic_dns_mode, trace_interval_ms, start_time)
     VALUES ($1, $2, '', $3, 1, 0, $4, $5) RETURNING id`,
    [accountId, name, opts.targetIp ?? '127.0.0.1', opts.intervalMs ?? 1000, startTime],
  );
  return row!.id;
}
