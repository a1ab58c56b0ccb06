// The sessions page's calls (spec 2 section 7): GET /api/Sessions and
// PATCH /api/Sessions/PerformSessionListCommand (OPEN, DELETE, EXPORT); sample counts come
// from the hub's GetSampleCountForSession (useSampleCounts).
import { get, patch } from '../api/http';
import { LocalMachineAgentId, type Session, type SessionListCommandResult, type SessionListCommandType } from '../../../server/contract/sessions';

export const getSessions = () => get<Session[]>('/api/Sessions');

/** The server takes at most this many IDs per command (server/sessions/schemas.ts). */
export const MaxIdsPerCommand = 10_000;

export async function performSessionListCommand(Type: SessionListCommandType, IDs: number[]): Promise<SessionListCommandResult> {
  if (!IDs.length) throw new Error('IDs is required.');
  const out: SessionListCommandResult = { Type, IDs: [], DownloadUrls: [] };
  for (let i = 0; i < IDs.length; i += MaxIdsPerCommand) {
    const r = await patch<SessionListCommandResult>('/api/Sessions/PerformSessionListCommand', {
      json: { Type, IDs: IDs.slice(i, i + MaxIdsPerCommand), PingServerId: LocalMachineAgentId },
    });
    if (r) {
      out.IDs.push(...r.IDs);
      out.DownloadUrls.push(...r.DownloadUrls);
    }
  }
  return out;
}
