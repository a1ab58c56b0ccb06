// Hub group names: who gets which pushed event.
export const accountGroup = (accountId: number) => `account:${accountId}`;
export const userGroup = (userId: number) => `user:${userId}`;
export const samplesGroup = (sessionId: number) => `samples:${sessionId}`;
export const summaryGroup = (summaryId: number) => `summary:${summaryId}`;
export const commentsGroup = (sessionId: number) => `comments:${sessionId}`;
export const wisdomGroup = (sessionId: number) => `wisdom:${sessionId}`;
