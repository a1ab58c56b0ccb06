// How a configuration names the remote-server packet type (ptTraceViaRemoteServer) and its
// access in configurations.engine_json, and how its password is kept: sealed with AES-256-GCM
// under a key file in the data directory (remote-server.key, mode 0600, made on first use; on
// PostgreSQL a row of server_keys, server/store/server-keys.ts).
// The server must send the password to the other appliance, so it cannot be hashed; sealed,
// a copied database alone does not give it away. It never goes back to a console in clear.
import type { PasswordSeal as Seal } from '../liveshare/secrets.js';
import { PasswordSeal } from '../liveshare/secrets.js';
import type { Store } from '../store/db.js';
import { dirname } from 'node:path';
import type { RemoteServerAccess } from './client.js';

/** The packet type's Name (the PacketType setting's value) and ID (spec 2 "Packet type"). */
export const RemoteServerPacketType = 'Remote server';
export const RemoteServerPacketTypeId = 'ptTraceViaRemoteServer';

/** engine_json keys of the access; the password key holds the sealed text only. */
export const RemoteKeys = { address: 'remoteAddress', userName: 'remoteUserName', password: 'remotePasswordSealed' } as const;

/** What the settings tree shows for a stored password (never the password); '' when none is stored. */
export const PasswordMask = '\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022';

const seals = new Map<string, Seal>();

/** The store's seal for remote-server passwords: the data directory's key file, or PostgreSQL's row of it. */
export function remoteServerSeal(store: Pick<Store, 'path' | 'keys'>, dataDir = dirname(store.path)): Seal {
  if (store.keys) return PasswordSeal.forStore(store, 'remote-server.key');
  let seal = seals.get(dataDir);
  if (!seal) {
    seal = PasswordSeal.forDataDir(dataDir, 'remote-server.key');
    seals.set(dataDir, seal);
  }
  return seal;
}

export const usesRemoteServer = (engine: Record<string, unknown>) => engine.packetType === RemoteServerPacketType;

/** The access a configuration's engine settings give, or undefined for the other packet types. */
export function remoteAccessOf(engine: Record<string, unknown>, open: (sealed: string) => string): RemoteServerAccess | undefined {
  if (!usesRemoteServer(engine)) return undefined;
  const sealed = engine[RemoteKeys.password];
  return {
    address: typeof engine[RemoteKeys.address] === 'string' ? (engine[RemoteKeys.address] as string) : '',
    userName: typeof engine[RemoteKeys.userName] === 'string' ? (engine[RemoteKeys.userName] as string) : '',
    password: typeof sealed === 'string' && sealed ? open(sealed) : '',
  };
}

/**
 * Where a trace's engine options carry its remote-server access (TraceRunner -> agent runtime
 * -> startWithRemoteServers). A symbol key: copied by object spread, never by JSON, so the
 * password cannot travel on with the options (to a remote agent's link, say).
 */
export const RemoteServerAccessKey = Symbol('remoteServerAccess');
export type WithRemoteServerAccess = { [RemoteServerAccessKey]?: RemoteServerAccess };
