// SQL of hop_hosts (migration 14): answers per session, hop, address and minute, with the
// details text when it changed.
import type { Queryable } from '../store/db.js';
import { HopHostMinuteMs, type HopHostRow } from './tally.js';

const Width = 6;
const RowsPerStatement = 500;

export async function insertHopHosts(q: Queryable, rows: HopHostRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += RowsPerStatement) {
    const part = rows.slice(i, i + RowsPerStatement);
    const values = part.map((_, r) => `(${Array.from({ length: Width }, (_, k) => `$${r * Width + k + 1}`).join(', ')})`).join(', ');
    await q.run(
      `INSERT INTO hop_hosts (session_id, hop, address, minute, answers, details) VALUES ${values}`,
      part.flatMap((r) => [r.sessionId, r.hop, r.address, r.minute, r.answers, r.details]),
    );
  }
}

export interface StoredHopHost {
  hop: number;
  address: string;
  answers: number;
  /** The latest details stored for the address up to the end of the range. */
  details: string | null;
}

/**
 * Every address that answered at a hop of the session in [from, to) (whole minutes: the
 * minutes the range touches), with its answers and its latest details up to `to`.
 */
export async function hopHostsIn(q: Queryable, sessionId: number, from: number, to: number): Promise<StoredHopHost[]> {
  const first = Math.floor(from / HopHostMinuteMs) * HopHostMinuteMs;
  return q.all<StoredHopHost>(
    `WITH counted AS (
       SELECT hop, address, sum(answers)::INTEGER AS answers FROM hop_hosts
       WHERE session_id = $1 AND minute >= $2 AND minute < $3 GROUP BY hop, address),
     latest AS (
       SELECT hop, address, arg_max(details, minute) AS details FROM hop_hosts
       WHERE session_id = $1 AND minute < $3 AND details IS NOT NULL GROUP BY hop, address)
     SELECT c.hop, c.address, c.answers, l.details FROM counted c LEFT JOIN latest l USING (hop, address)
     ORDER BY c.hop, c.answers DESC, c.address`,
    [sessionId, first, to],
  );
}
