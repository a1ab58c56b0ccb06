// The one rule every read a LiveShare visitor may make goes through: a visitor sees the
// targets (sessions) its link shares and nothing else, answered as "not found" like another
// account's target.
import type { Principal } from '../account/principal.js';

export const outsideLiveShare = (p: Principal, sessionId: number): boolean => p.liveShare !== undefined && !p.liveShare.sessionIds.has(sessionId);

/** For summary reads: a visitor reaches only its link's summary. */
export const summaryOutsideLiveShare = (p: Principal, summaryId: number): boolean => p.liveShare !== undefined && p.liveShare.summaryId !== summaryId;
