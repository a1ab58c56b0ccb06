// Two replicas' Redis connections (server/cluster/redis.ts) on one throwaway redis-server, for
// suites of the cluster pieces without whole appliances.
import type { FastifyBaseLogger } from 'fastify';
import { ClusterRedis } from '../../server/cluster/redis.js';
import { startRedis, type ThrowawayRedis } from './redis.js';

const quiet = () => undefined;
export const quietLog = { info: quiet, warn: quiet, error: quiet, debug: quiet } as unknown as FastifyBaseLogger;

/** Polls `test` until true, or fails naming `what` after 5 s. */
export async function until(test: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface RedisReplicas {
  redis: ThrowawayRedis;
  a: ClusterRedis;
  b: ClusterRedis;
  /** Another replica's connection (closed by close()). */
  another(): ClusterRedis;
  close(): Promise<void>;
}

/** A redis-server and two connected replicas' connections to it. */
export async function redisReplicas(): Promise<RedisReplicas> {
  const redis = await startRedis();
  const all: ClusterRedis[] = [];
  const another = () => {
    const c = new ClusterRedis(redis.url, quietLog);
    all.push(c);
    return c;
  };
  const [a, b] = [another(), another()];
  await until(() => a.available && b.available, 'Redis');
  return {
    redis,
    a,
    b,
    another,
    async close() {
      for (const c of all) await c.close();
      await redis.stop();
    },
  };
}
