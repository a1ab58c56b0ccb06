// The agent_setup_keys table (migration 21, issue 40 item 3): an agent's current setup key,
// sealed, so every Installer, Download Agent and Auto Setup shows the same link until the key
// is used or the user asks for a new one; and the hash of the key a new one replaced.
import type { Queryable } from '../store/db.js';

export interface SetupKeyRecord {
  agentId: number;
  sealedKey: string;
  replacedHash: string | null;
  createdAt: number;
}

export async function findSetupKey(q: Queryable, agentId: number): Promise<SetupKeyRecord | undefined> {
  const r = await q.one<SetupKeyRecord>(
    `SELECT agent_id AS "agentId", sealed_key AS "sealedKey", replaced_hash AS "replacedHash", created_at AS "createdAt" FROM agent_setup_keys WHERE agent_id = $1`,
    [agentId],
  );
  return r && { ...r, agentId: Number(r.agentId), createdAt: Number(r.createdAt) };
}

export async function keepSetupKey(q: Queryable, k: SetupKeyRecord): Promise<void> {
  await q.run(`INSERT INTO agent_setup_keys (agent_id, sealed_key, replaced_hash, created_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (agent_id) DO UPDATE SET sealed_key = excluded.sealed_key, replaced_hash = excluded.replaced_hash, created_at = excluded.created_at`, [
    k.agentId,
    k.sealedKey,
    k.replacedHash,
    k.createdAt,
  ]);
}

/** The key was used (the agent has its own credential now) or the agent is gone. */
export async function forgetSetupKey(q: Queryable, agentId: number): Promise<void> {
  await q.run('DELETE FROM agent_setup_keys WHERE agent_id = $1', [agentId]);
}
