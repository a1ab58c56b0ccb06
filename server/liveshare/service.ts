// LiveShare link management (spec 1 "LiveShare link management", section 7 "LiveShare"):
// one function per call, each needing SummaryManagement and the Professional licence. Every
// change is written to the link's history with the caller's address; visits are written by
// visitors.ts. Changes raise LiveShareChanged, which ends the visits of a link that was
// switched off (server/mainhub/revocation.ts).
import { Claim, LicenseMode } from '../contract/account.js';
import { LinkHistoryAction, liveSharePath, type AddLinkHistoryInput, type LinkHistory, type LiveShareLink, type LiveShareLinkInput } from '../contract/liveshare.js';
import { requireClaim, requireLicense } from '../account/authenticate.js';
import type { Principal } from '../account/principal.js';
import type { Config } from '../config.js';
import type { DomainEventBus } from '../events.js';
import { badRequest, notFound } from '../http/errors.js';
import { parseOptionalTime } from '../http/time.js';
import type { Queryable, Store } from '../store/db.js';
import * as repo from './repository.js';
import { digestOf, newSecurePW, newShareId, type PasswordSeal } from './secrets.js';
import { formatSummaryRef, parseSummaryRef, sharedTargets } from './shared.js';

export interface LiveShareDeps {
  store: Store;
  events: DomainEventBus;
  config: Config;
  seal: PasswordSeal;
  now?: () => number;
}

/** Who made a management call: the address goes into the history; the URL base into LiveShareURL. */
export interface CallContext {
  address: string;
  serverUrl: string;
}

const now = (deps: LiveShareDeps) => (deps.now ?? Date.now)();
const iso = (ms: number) => new Date(ms).toISOString();

function gate(deps: LiveShareDeps, p: Principal): void {
  requireLicense(deps.config, LicenseMode.Professional);
  requireClaim(p, Claim.SummaryManagement);
}

export function toLink(deps: LiveShareDeps, l: repo.LinkRecord, serverUrl: string): LiveShareLink {
  const pw = deps.seal.open(l.pwSealed);
  return {
    DbId: l.id,
    ShareId: l.shareId,
    SecurePW: pw,
    Description: l.description,
    Notes: l.notes,
    Active: l.active,
    CreationDate: iso(l.createdAt),
    ExpirationDate: l.expiresAt === null ? null : iso(l.expiresAt),
    SummaryID: l.summaryRef,
    TargetID: l.targetRef,
    Account: l.accountId,
    CreatedByUser: l.createdBy,
    LiveShareURL: pw ? `${serverUrl.replace(/\/+$/, '')}${liveSharePath(l.shareId, pw)}` : '',
  };
}

const toHistory = (h: repo.HistoryRecord): LinkHistory => ({
  DbId: h.id,
  LinkId: h.linkId,
  Link: h.shareId,
  Date: iso(h.at),
  IPAddress: h.address,
  Action: h.action,
  LogText: h.logText,
});

/** "Summary {id} not a valid summary" (spec 1): unknown, malformed or another account's. */
async function requireShared(q: Queryable, accountId: number, ref: string): Promise<string> {
  const parsed = parseSummaryRef(ref);
  const canonical = parsed && formatSummaryRef(parsed);
  if (!canonical || !(await sharedTargets(q, accountId, canonical))) throw notFound(`Summary ${ref} not a valid summary`);
  return canonical;
}

async function requireLink(q: Queryable, accountId: number, shareId: string): Promise<repo.LinkRecord> {
  const l = await repo.findLink(q, shareId);
  if (!l || l.accountId !== accountId) throw notFound(`LiveShare link ${shareId} not found.`);
  return l;
}

/** An expiration as given: a time, or null for never (null and "" mean never). */
function expirationOf(value: string | null | undefined, t: number): number | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const ms = parseOptionalTime(value, 'ExpirationDate');
  if (ms === undefined) return null;
  if (ms <= t) throw badRequest('The expiration date is in the past.');
  return ms;
}

/** The spec's fallback name: "Created {date}". */
const defaultName = (t: number) => `Created ${iso(t).slice(0, 16).replace('T', ' ')} UTC`;

function history(q: Queryable, l: repo.LinkRecord, t: number, ctx: CallContext, action: string, logText: string) {
  return repo.addHistory(q, { linkId: l.id, shareId: l.shareId, accountId: l.accountId, at: t, address: ctx.address, action, logText });
}

/** GET /api/liveshare: every link of the account. */
export async function listLinks(deps: LiveShareDeps, p: Principal, ctx: CallContext): Promise<LiveShareLink[]> {
  gate(deps, p);
  const rows = await deps.store.read((q) => repo.listLinks(q, p.accountId));
  return rows.map((l) => toLink(deps, l, ctx.serverUrl));
}

/** GET /api/liveshare/GetLinksForSummary?summaryID: the links of one summary or agent. */
export async function linksForSummary(deps: LiveShareDeps, p: Principal, summaryID: string, ctx: CallContext): Promise<LiveShareLink[]> {
  gate(deps, p);
  const rows = await deps.store.read(async (q) => repo.listLinks(q, p.accountId, await requireShared(q, p.accountId, summaryID)));
  return rows.map((l) => toLink(deps, l, ctx.serverUrl));
}

/** GET /api/liveshare/{shareId}. */
export async function getLink(deps: LiveShareDeps, p: Principal, shareId: string, ctx: CallContext): Promise<LiveShareLink> {
  gate(deps, p);
  return toLink(deps, await deps.store.read((q) => requireLink(q, p.accountId, shareId)), ctx.serverUrl);
}

/** POST /api/liveshare: a new active link with a fresh id and password. */
export async function createLink(deps: LiveShareDeps, p: Principal, input: LiveShareLinkInput, ctx: CallContext): Promise<LiveShareLink> {
  gate(deps, p);
  const t = now(deps);
  if (!input.SummaryID) throw badRequest('SummaryID is required (SUM-{id} or AGT-{agentUniqueId}).');
  const expiresAt = expirationOf(input.ExpirationDate, t);
  const password = newSecurePW();
  const created = await deps.store.transaction(async (q) => {
    const summaryRef = await requireShared(q, p.accountId, input.SummaryID!);
    const record: Omit<repo.LinkRecord, 'id'> = {
      shareId: newShareId(),
      pwDigest: digestOf(password),
      pwSealed: deps.seal.seal(password),
      description: input.Description?.trim() || defaultName(t),
      notes: input.Notes ?? '',
      active: true,
      createdAt: t,
      expiresAt,
      summaryRef,
      targetRef: input.TargetID ?? '',
      accountId: p.accountId,
      createdBy: p.username,
    };
    const id = await repo.insertLink(q, record);
    const l = { ...record, id };
    await history(q, l, t, ctx, LinkHistoryAction.Created, `Created by ${p.username} for ${summaryRef}.`);
    return l;
  });
  deps.events.emit('LiveShareChanged', p.accountId, created.id, true);
  return toLink(deps, created, ctx.serverUrl);
}

/**
 * PUT /api/liveshare/{shareId}: fields left out or empty keep their old values (spec 1 section 5),
 * except the expiration: the form shows it filled, so a blank one means never (docs/liveshare.md).
 */
export async function updateLink(deps: LiveShareDeps, p: Principal, shareId: string, input: LiveShareLinkInput, ctx: CallContext): Promise<LiveShareLink> {
  gate(deps, p);
  const t = now(deps);
  const updated = await deps.store.transaction(async (q) => {
    const old = await requireLink(q, p.accountId, shareId);
    const next = {
      description: input.Description?.trim() || old.description,
      notes: input.Notes || old.notes,
      active: input.Active ?? old.active,
      // Left out: keep. Blank ("" or spaces) or null: never expires, as the edit form's blank
      // field means (docs/liveshare.md "Edit semantics"; it used to keep the old expiry).
      expiresAt: input.ExpirationDate === undefined ? old.expiresAt : expirationOf(input.ExpirationDate, t),
      summaryRef: input.SummaryID ? await requireShared(q, p.accountId, input.SummaryID) : old.summaryRef,
      targetRef: input.TargetID ?? old.targetRef,
    };
    await repo.updateLink(q, old.id, next);
    const l = { ...old, ...next };
    const changed = (Object.keys(next) as (keyof typeof next)[]).filter((k) => next[k] !== old[k] && k !== 'active');
    if (changed.length) await history(q, l, t, ctx, LinkHistoryAction.Updated, `${p.username} changed ${changed.join(', ')}.`);
    if (next.active !== old.active) {
      await history(q, l, t, ctx, next.active ? LinkHistoryAction.Enabled : LinkHistoryAction.Disabled, `${next.active ? 'Enabled' : 'Disabled'} by ${p.username}.`);
    }
    return l;
  });
  deps.events.emit('LiveShareChanged', p.accountId, updated.id, updated.active);
  return toLink(deps, updated, ctx.serverUrl);
}

/**
 * DELETE /api/liveshare/DeleteLink?shareId: an active link is switched off (the console asks
 * first); an inactive one is removed for good. Its history stays readable.
 */
export async function deleteLink(deps: LiveShareDeps, p: Principal, shareId: string, ctx: CallContext): Promise<void> {
  gate(deps, p);
  const t = now(deps);
  const l = await deps.store.transaction(async (q) => {
    const old = await requireLink(q, p.accountId, shareId);
    if (old.active) {
      await repo.updateLink(q, old.id, { ...old, active: false });
      await history(q, old, t, ctx, LinkHistoryAction.Disabled, `Deactivated by ${p.username} (delete of an active link).`);
    } else {
      await repo.deleteLinkRow(q, old.id);
      await history(q, old, t, ctx, LinkHistoryAction.Deleted, `Deleted by ${p.username}.`);
    }
    return old;
  });
  deps.events.emit('LiveShareChanged', p.accountId, l.id, false);
}

/** PUT /api/liveshare/AddLinkHistory: a note in a link's history, with the caller's address and the time. */
export async function addLinkHistory(deps: LiveShareDeps, p: Principal, input: AddLinkHistoryInput, ctx: CallContext): Promise<LinkHistory> {
  gate(deps, p);
  const t = now(deps);
  return deps.store.transaction(async (q) => {
    const l = await requireLink(q, p.accountId, input.ShareId);
    const logText = input.LogText ?? '';
    const id = await history(q, l, t, ctx, input.Action, logText);
    return { DbId: id, LinkId: l.id, Link: l.shareId, Date: iso(t), IPAddress: ctx.address, Action: input.Action, LogText: logText };
  });
}

/** GET /api/liveshare/GetHistoryForLink?shareId: oldest first; also for a link deleted for good. */
export async function historyForLink(deps: LiveShareDeps, p: Principal, shareId: string): Promise<LinkHistory[]> {
  gate(deps, p);
  const rows = await deps.store.read((q) => repo.historyOf(q, p.accountId, shareId));
  if (!rows.length) {
    await deps.store.read((q) => requireLink(q, p.accountId, shareId));
  }
  return rows.map(toHistory);
}
