// Ping Server Management's call: GET /api/staff/pingservers: the built-in engine and every
// agent of every account, with health (connected, last seen, version) and load (sessions
// tracing, samples per minute).
import type { FastifyInstance } from 'fastify';
import type { PingServer } from '../../contract/staff.js';
import { StaffAccess } from '../access.js';
import { PingServerListSchema } from '../schemas.js';
import { isoOf } from '../time.js';
import { engineLoads } from './repository.js';

export default async function pingServersPlugin(app: FastifyInstance, opts: { version: string }) {
  app.get(
    '/api/staff/pingservers',
    { config: { changesState: false, access: StaffAccess }, schema: { response: { 200: PingServerListSchema } } },
    async (): Promise<PingServer[]> => {
      const { local, agents } = await app.store.read((q) => engineLoads(q));
      const builtIn: PingServer = {
        Id: -1,
        UniqueId: 'local',
        Name: 'Local Machine (this appliance)',
        AccountId: 0,
        AccountName: 'every account',
        Engine: app.config.engine === 'simulated' ? 'simulated' : 'raw sockets',
        Connected: true,
        LastSeen: new Date().toISOString(),
        Version: opts.version,
        ActiveSessions: local.activeSessions,
        SamplesPerMinute: local.samplesPerMinute,
      };
      return [
        builtIn,
        ...agents.map((g) => ({
          Id: g.id,
          UniqueId: g.uniqueId,
          Name: g.name,
          AccountId: g.accountId,
          AccountName: g.accountName,
          Engine: 'agent',
          Connected: app.agents.links.isOnline(g.id),
          LastSeen: isoOf(g.lastMessage),
          Version: g.version,
          ActiveSessions: g.activeSessions,
          SamplesPerMinute: g.samplesPerMinute,
        })),
      ];
    },
  );
}
