// The hub backplane over Redis pub/sub (server/hub/backplane.ts, docs/hub.md "Backplane"), as
// SignalR's Redis backplane does it: a send to one group goes on that group's channel, which
// only replicas with members in the group listen to; sends to all, to several groups at once or
// to a connection go on the hub's common channel, which every replica listens to. Redis hands
// one channel's messages to its subscribers in one order, so a group's events arrive in the
// same order on every replica. While Redis is away the publish is refused and the hub delivers
// to its own connections.
import type { Audience, HubBackplane } from '../hub/index.js';
import { type ClusterRedis, KeyPrefix } from './redis.js';

interface Envelope {
  a: Audience;
  f: string;
}

export function redisHubBackplane(redis: ClusterRedis, hubPath: string): HubBackplane {
  const common = `${KeyPrefix}hub:${hubPath}`;
  const groupChannel = (group: string) => `${common}:group:${group}`;
  let deliver: ((audience: Audience, frame: string) => void) | undefined;
  const listening = new Map<string, () => void>();
  const onGroupFrame = (group: string) => (frame: string) => deliver?.({ groups: [group] }, frame);
  return {
    publish: (audience, frame) => {
      if ('groups' in audience && audience.groups.length === 1) return redis.publish(groupChannel(audience.groups[0]), frame);
      return redis.publish(common, JSON.stringify({ a: audience, f: frame } satisfies Envelope));
    },
    receive: (fn) => {
      deliver = fn;
      const off = redis.subscribe(common, (message) => {
        const e = JSON.parse(message) as Envelope;
        deliver?.(e.a, e.f);
      });
      return () => {
        off();
        for (const stop of listening.values()) stop();
        listening.clear();
        deliver = undefined;
      };
    },
    interest: (group, members) => {
      if (members && !listening.has(group)) listening.set(group, redis.subscribe(groupChannel(group), onGroupFrame(group)));
      if (!members) {
        listening.get(group)?.();
        listening.delete(group);
      }
    },
  };
}
