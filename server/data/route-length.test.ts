import { describe, expect, it } from 'vitest';
import { routeLength } from './route-length.js';

const hosts = (n: number, targetIp: string) => Array.from({ length: n }, (_, i) => ({ hop: i + 1, address: i + 1 === n ? targetIp : `10.0.0.${i + 1}` }));

describe('route length (the Hops column; issue 41 item 5)', () => {
  it('ends where the target answers, not at the deepest TTL sampled', () => {
    // Rounds that lost the probe at TTL 7 reached the target again at TTL 8: the window shows 7 rows.
    expect(routeLength('192.0.2.1', [...hosts(7, '192.0.2.1'), { hop: 8, address: '192.0.2.1' }], 8)).toBe(7);
  });
  it('is the deepest hop seen when the target never answered', () => {
    expect(routeLength('192.0.2.1', hosts(5, '10.9.9.9'), 6)).toBe(6);
    expect(routeLength('192.0.2.1', hosts(5, '10.9.9.9'), 3)).toBe(5);
  });
});
