// Comments on a target's time graph (spec 2 sections 3, 5, 6, 7): one function per
// operation, shared by the /cmd routes and the hub's GetComments. A comment belongs to a
// target; SessionWebId may be the target id or one of its row ids ({id}_h_{hop}), and
// answers always carry the target id.
import { Claim } from '../contract/account.js';
import { CommentFutureToleranceMs, CommentTextMaxLength, type Comment } from '../contract/summaries.js';
import { requireClaim } from '../account/authenticate.js';
import type { Principal } from '../account/principal.js';
import { outsideLiveShare } from '../liveshare/scope.js';
import type { DomainEventBus } from '../events.js';
import { badRequest, notFound } from '../http/errors.js';
import type { Store } from '../store/db.js';
import { requireSession, sessionIdOf } from '../summaries/target-ref.js';
import * as repo from './repository.js';
import { parseTime } from '../http/time.js';

export interface CommentDeps {
  store: Store;
  events: DomainEventBus;
}

export const NoTextEntered = 'Comment not saved - no text entered.';
export const ExtraAttributesMaxLength = 16 * 1024;

/** What a create or update call sends; missing fields keep their stored value on update. */
export interface CommentInput {
  Id?: number;
  When?: string;
  Text?: string;
  Type?: number;
  SessionWebId?: string;
  ExtraAttributesJson?: string;
}

const toComment = (c: repo.CommentRecord): Comment => ({
  Id: c.id,
  When: new Date(c.whenMs).toISOString(),
  Text: c.text,
  Type: c.type,
  SessionWebId: String(c.sessionId),
  ExtraAttributesJson: c.extraAttributesJson,
});

function checkText(text: string | undefined): string {
  if (text === undefined || !text.trim()) throw badRequest(NoTextEntered);
  if (text.length > CommentTextMaxLength) throw badRequest(`A comment has at most ${CommentTextMaxLength} characters.`);
  return text;
}

/** Comments are never forward-dated (spec 2 section 5); a minute of clock skew is allowed. */
function checkWhen(when: string, now = Date.now()): number {
  const ms = parseTime(when, 'When');
  if (ms > now + CommentFutureToleranceMs) throw badRequest('A comment cannot be dated in the future.');
  return ms;
}

function checkExtra(extra: string | undefined): string {
  if (extra === undefined || extra === '') return '';
  if (extra.length > ExtraAttributesMaxLength) throw badRequest(`ExtraAttributesJson has at most ${ExtraAttributesMaxLength} characters.`);
  try {
    JSON.parse(extra);
  } catch {
    throw badRequest('ExtraAttributesJson must be JSON text.');
  }
  return extra;
}

/** PUT /cmd/createcomment. */
export async function createComment(deps: CommentDeps, p: Principal, input: CommentInput): Promise<Comment> {
  requireClaim(p, Claim.TargetManagement);
  if (!input.SessionWebId) throw badRequest('SessionWebId is required: the target the comment belongs to.');
  const fields = {
    text: checkText(input.Text),
    whenMs: input.When ? checkWhen(input.When) : Date.now(),
    type: input.Type ?? 0,
    extraAttributesJson: checkExtra(input.ExtraAttributesJson),
  };
  const created = await deps.store.transaction(async (q) => {
    const session = await requireSession(q, p.accountId, input.SessionWebId!);
    const id = await repo.insertComment(q, { ...fields, sessionId: session.id }, p.userId);
    return (await repo.findComment(q, p.accountId, id))!;
  });
  deps.events.emit('CommentChanged', p.accountId, created.sessionId, created.whenMs, created.id);
  return toComment(created);
}

/** PATCH /cmd/updatecomment: the comment stays on its target. */
export async function updateComment(deps: CommentDeps, p: Principal, input: CommentInput): Promise<Comment> {
  requireClaim(p, Claim.TargetManagement);
  if (input.Id === undefined) throw badRequest('Id is required: the comment to update.');
  const text = input.Text === undefined ? undefined : checkText(input.Text);
  const whenMs = input.When ? checkWhen(input.When) : undefined;
  const extra = input.ExtraAttributesJson === undefined ? undefined : checkExtra(input.ExtraAttributesJson);
  const webSessionId = input.SessionWebId ? sessionIdOf(input.SessionWebId) : undefined;
  const updated = await deps.store.transaction(async (q) => {
    const old = await repo.findComment(q, p.accountId, input.Id!);
    if (!old || (webSessionId !== undefined && webSessionId !== old.sessionId)) throw notFound(`Comment ${input.Id} not found.`);
    const next: repo.CommentRecord = {
      ...old,
      text: text ?? old.text,
      whenMs: whenMs ?? old.whenMs,
      type: input.Type ?? old.type,
      extraAttributesJson: extra ?? old.extraAttributesJson,
    };
    await repo.updateComment(q, next);
    return next;
  });
  deps.events.emit('CommentChanged', p.accountId, updated.sessionId, updated.whenMs, updated.id);
  return toComment(updated);
}

/** DELETE /cmd/deletecomment?sessionWebId&commentId. */
export async function deleteComment(deps: CommentDeps, p: Principal, args: { sessionWebId: string; commentId: number }): Promise<void> {
  requireClaim(p, Claim.TargetManagement);
  const sessionId = sessionIdOf(args.sessionWebId);
  const gone = await deps.store.transaction(async (q) => {
    const old = await repo.findComment(q, p.accountId, args.commentId);
    if (!old || old.sessionId !== sessionId) throw notFound(`Comment ${args.commentId} not found.`);
    await repo.deleteComment(q, old.id);
    return old;
  });
  deps.events.emit('CommentChanged', p.accountId, gone.sessionId, gone.whenMs, gone.id);
}

/** GET /cmd/getcomments?sessionWebId&startDate&endDate (hub GetComments(targetId, start, end)). */
export async function getComments(
  deps: CommentDeps,
  p: Principal,
  args: { sessionWebId: string; startDate: string | number; endDate: string | number },
): Promise<Comment[]> {
  const start = parseTime(args.startDate, 'startDate');
  const end = parseTime(args.endDate, 'endDate');
  if (start > end) throw badRequest('startDate must not be after endDate.');
  const rows = await deps.store.read(async (q) => {
    const session = await requireSession(q, p.accountId, args.sessionWebId);
    if (outsideLiveShare(p, session.id)) throw notFound(`Target ${session.id} not found.`);
    return repo.commentsBetween(q, session.id, start, end);
  });
  return rows.map(toComment);
}
