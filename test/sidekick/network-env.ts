// Sidekick's test network on the simulated engine (scenarios/ here): a routing table with the
// default gateway 10.251.131.1, a resolv.conf naming 10.251.131.53, and the variables that point
// discovery at them, call 10.251.131.0/26 private and name the external sources. Written into
// `dir`; the answer is an appliance environment (test/support/appliance.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function sidekickNetworkEnv(dir: string, scenarios: string, password: string): Record<string, string> {
  writeFileSync(join(dir, 'route'), 'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\neth0\t00000000\t0183FB0A\t0003\t0\t0\t0\t00000000\t0\t0\t0\n');
  writeFileSync(join(dir, 'resolv.conf'), 'nameserver 10.251.131.53\n');
  return {
    HOPWATCH_ROOT_PASSWORD: password,
    HOPWATCH_ENGINE: 'simulated',
    HOPWATCH_SIM_SCENARIOS: scenarios,
    HOPWATCH_SIDEKICK_ROUTE_TABLE: join(dir, 'route'),
    HOPWATCH_SIDEKICK_RESOLV_CONF: join(dir, 'resolv.conf'),
    HOPWATCH_SIDEKICK_PRIVATE_RANGES: '10.251.131.0/26',
    HOPWATCH_SIDEKICK_EXTERNAL_SOURCES: '10.251.131.100,10.251.131.101',
    HOPWATCH_SIDEKICK_EDGE_WAIT_SECONDS: '30',
  };
}
