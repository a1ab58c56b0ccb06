// Tooltip texts of the trace grid (spec 2 "Trace grid"): the target row says when the target
// is paused or watched by alerts; the Agent cell says whether its agent is online.
import { LossNotOnPathText, type LossNotOnPath } from '../../../server/contract/hop-loss';
import type { TargetRow } from '../../../server/contract/targets';
import { isHeaderRow } from './logic/rowId';

export interface KnownAgent {
  id: number;
  online: boolean;
}

export function agentTooltip(agentId: number, agents: readonly KnownAgent[]): { text: string; offline: boolean } {
  const agent = agents.find((a) => a.id === agentId);
  if (!agent) return { text: `Agent ${agentId} not found in agent list`, offline: false };
  return agent.online ? { text: `Agent ${agentId} is online`, offline: false } : { text: `Agent ${agentId} is offline`, offline: true };
}

/** Cells that show a hop's loss: muted ones say why (issue 41 item 1). */
const LossColumns = new Set(['PacketLoss', 'Graph']);

/**
 * The tooltip of one cell, or null. Target-state notes go on the target's own row; the loss
 * cells of a hop whose loss is not loss on the path (`mutedLoss`) say why it is muted.
 */
export function cellTooltip(row: TargetRow, columnName: string, agents: readonly KnownAgent[], mutedLoss?: LossNotOnPath): string | null {
  if (columnName === 'Agent') return agentTooltip(row.HubSentinelID, agents).text;
  if (mutedLoss && LossColumns.has(columnName)) return LossNotOnPathText[mutedLoss];
  if (!isHeaderRow(row.UniqueID) || columnName === 'Graph') return null;
  const notes: string[] = [];
  if (!row.IsRunning) notes.push('This target is paused.');
  if (row.HasAlert) notes.push('This target is being monitored by 1 or more alerts.');
  return notes.length ? notes.join('\n') : null;
}
