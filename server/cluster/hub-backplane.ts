// The hub backplane over Redis pub/sub (server/hub/backplane.ts, docs/hub.md "Backplane"): one
// channel per hub, every replica publishing every send to it and delivering what the channel
// brings to its own connections. Redis hands a channel's messages to every subscriber in one
// order, so a group's events arrive in the same order on every replica, as with SignalR's
// Redis backplane. While Redis is away the publish is refused and the hub delivers locally.
import type { Audience, HubBackplane } from '../hub/index.js';
import { type ClusterRedis, KeyPrefix } from './redis.js';

interface Envelope {
  a: Audience;
  f: string;
}

export function redisHubBackplane(redis: ClusterRedis, hubPath: string): HubBackplane {
  const channel = `${KeyPrefix}hub:${hubPath}`;
  return {
    publish: (audience, frame) => redis.publish(channel, JSON.stringify({ a: audience, f: frame } satisfies Envelope)),
    receive: (deliver) =>
      redis.subscribe(channel, (message) => {
        const e = JSON.parse(message) as Envelope;
        deliver(e.a, e.f);
      }),
  };
}
