// The addresses the engines resolve targets to, written to the sessions rows in groups: every
// trace resolves its target when it starts, so 200 agents connecting start 1,000 traces at once,
// and an UPDATE each in the store's single write lane held the ingest commits behind them for
// seconds (bench:agents). Gathered for a short time and written in one statement; a row that
// already holds the address is not touched. A resolution in the last GatherMs before a stop may
// be lost: the trace resolves again when it starts next.
import type { FastifyBaseLogger } from 'fastify';
import { list } from '../store/dialect.js';
import type { Store } from '../store/db.js';
import { GroupedWrites } from '../store/grouped-writes.js';

const GatherMs = 100;

export class TargetIpWrites {
  private readonly writes: GroupedWrites<string>;

  constructor(store: Store, private readonly log: Pick<FastifyBaseLogger, 'error'>) {
    this.writes = new GroupedWrites(store, GatherMs, (q, rows) =>
      q.run(
        `UPDATE sessions SET target_ip = v.ip
         FROM (SELECT unnest($1::INTEGER[]) AS id, unnest($2::VARCHAR[]) AS ip) v
         WHERE sessions.id = v.id AND sessions.target_ip IS DISTINCT FROM v.ip`,
        [list(rows.map(([id]) => id)), list(rows.map(([, ip]) => ip))],
      ),
    );
  }

  /** The session's target now resolves to `ip` (written within GatherMs). */
  set(sessionId: number, ip: string): void {
    this.writes.set(sessionId, ip).catch((err: unknown) => this.log.error({ err, sessionId }, 'target address not written'));
  }

  /** Writes what waits now. */
  flush(): Promise<void> {
    return this.writes.flush().catch(() => undefined); // logged by set's caller
  }
}
