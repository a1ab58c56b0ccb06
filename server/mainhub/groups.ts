// Hub group names: who gets which pushed event.
export const accountGroup = (accountId: number) => `account:${accountId}`;
export const userGroup = (userId: number) => `user:${userId}`;
export const samplesGroup = (sessionId: number) => `samples:${sessionId}`;
export const summaryGroup = (summaryId: number) => `summary:${summaryId}`;
export const commentsGroup = (sessionId: number) => `comments:${sessionId}`;
/**
 * LiveShare visitors of an agent link: its pseudo-summary (id 0) of the agent's targets.
 * Per account: the Local Machine (agent -1) is every account's in the hosted flavour.
 */
export const agentSummaryGroup = (accountId: number, agentId: number) => `agent-summary:${accountId}:${agentId}`;
export const wisdomGroup = (sessionId: number) => `wisdom:${sessionId}`;

/** The groups joined for one target (session): a visitor holds them while its link shares it. */
const perSession = /^(?:samples|comments|wisdom):(\d+)$/;

/** The target (session) a per-target group is for, or undefined for any other group. */
export function sessionOfGroup(group: string): number | undefined {
  const m = perSession.exec(group);
  return m ? Number(m[1]) : undefined;
}
