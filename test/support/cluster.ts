// Several appliance replicas on one throwaway PostgreSQL and one throwaway Redis (issue 43):
// each replica is dist/server/main.js in its own process with its own data directory, as
// behind a load balancer. Traces run on the simulated engine (loopback is built in).
import { startAppliance, type Appliance } from './appliance.js';
import { startPostgres, type ThrowawayPostgres } from './postgres.js';
import { startRedis, type ThrowawayRedis } from './redis.js';

export interface TestCluster {
  pg: ThrowawayPostgres;
  redis: ThrowawayRedis;
  replicas: Appliance[];
  /** The root user's password on every replica. */
  password: string;
  dispose(): Promise<void>;
}

export async function startCluster(count: number, env: Record<string, string> = {}): Promise<TestCluster> {
  const pg = await startPostgres();
  const redis = await startRedis();
  const password = 'cluster-pw';
  const shared = {
    HOPWATCH_DATABASE_URL: pg.url,
    HOPWATCH_REDIS_URL: redis.url,
    HOPWATCH_ROOT_PASSWORD: password,
    HOPWATCH_ENGINE: 'simulated',
    ...env,
  };
  const replicas: Appliance[] = [];
  const dispose = async () => {
    await Promise.all(replicas.map((r) => r.dispose()));
    await redis.stop();
    pg.stop();
  };
  try {
    // The first one migrates the empty database and creates the root user; then the others.
    replicas.push(await startAppliance({ env: shared }));
    replicas.push(...(await Promise.all(Array.from({ length: count - 1 }, () => startAppliance({ env: shared })))));
  } catch (err) {
    await dispose();
    throw err;
  }
  return { pg, redis, replicas, password, dispose };
}
