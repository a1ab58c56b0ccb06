// What the console does with each event the server pushes on /mainHub (spec 3 section 7.5).
// Every event gets a handler here, so the SignalR client never drops one with "No client
// method with the name ..." and a second tab follows what the first one changed. Events
// that say "reload X" bump a version atom; the screen holding X reloads when it changes.
// Events of one target or summary (samples, routes, comments, Insights progress) are acted
// on by the screen that registered for them (useTargetRows, the target window); here they
// only have the no-op that keeps the client quiet.
import { atom } from 'jotai';

/** Events pushed by the server, spec 3 section 7.5. */
export const HubPushedEvents = [
  'SummaryListChanged',
  'UserUpdated',
  'SettingsChanged',
  'CloudConnectAccountUpdated',
  'HostUpdated',
  'SummaryHostUpdated',
  'RouteChanged',
  'SummaryChanged',
  'SessionsChanged',
  'CommentChanged',
  'WisdomTestProgressUpdated',
] as const;
export type HubPushedEvent = (typeof HubPushedEvents)[number];

/** Bumped on SummaryListChanged and SessionsChanged: the sidebar's summaries (names, target counts). */
export const summaryListVersionAtom = atom(0);
/** Bumped on SessionsChanged: the sessions list (spec 2 "SessionsChanged (reload the list)"). */
export const sessionsVersionAtom = atom(0);
/** Bumped on SettingsChanged: configurations, display settings (Warn/Bad/Scale), the settings list. */
export const settingsVersionAtom = atom(0);
/** Bumped on CloudConnectAccountUpdated: the agent list and entitlement. */
export const agentsVersionAtom = atom(0);
/** Bumped on SummaryChanged: the open summary's details and rows. */
export const summaryVersionAtom = atom(0);

export type HubEventAction =
  | { kind: 'bump'; atoms: (typeof summaryListVersionAtom)[] }
  | { kind: 'refreshUser' }
  /** Handled by the screen that registered for it. */
  | { kind: 'screen' };

/** What each pushed event does, console-wide. */
export const HubEventActions: Record<HubPushedEvent, HubEventAction> = {
  SummaryListChanged: { kind: 'bump', atoms: [summaryListVersionAtom] },
  // A target started or closed changes the summaries' target counts as well as the sessions.
  SessionsChanged: { kind: 'bump', atoms: [sessionsVersionAtom, summaryListVersionAtom] },
  SettingsChanged: { kind: 'bump', atoms: [settingsVersionAtom] },
  CloudConnectAccountUpdated: { kind: 'bump', atoms: [agentsVersionAtom] },
  SummaryChanged: { kind: 'bump', atoms: [summaryVersionAtom] },
  // Claims, licence or name changed: read the current user again (spec 1 section 4).
  UserUpdated: { kind: 'refreshUser' },
  HostUpdated: { kind: 'screen' },
  SummaryHostUpdated: { kind: 'screen' },
  RouteChanged: { kind: 'screen' },
  CommentChanged: { kind: 'screen' },
  WisdomTestProgressUpdated: { kind: 'screen' },
};
