// The alerts pages the console's sidebar loads (spec 3 sections 2.7, 3.3, 7.3): GET
// /cmd/getpage answers {HTML, EditableSettings}; Alerts/Management.html also carries the
// management actions (DeleteAlert, RemoveHosts, AddHosts, DeleteAction) in its parameters.
// The console wires elements by data- attributes only (web/src/alerts/): data-page and
// data-params load a page (data-modal: as a modal), a form with data-finish sends its fields
// to the finishing call, data-test runs "Send test". No script is ever sent.
import type { AlertDto, ActionKind, ActionConfig } from '../contract/alerts.js';
import type { Principal } from '../account/principal.js';
import { badRequest } from '../http/errors.js';
import { html, json, type Markup } from './html.js';
import type { AlertService } from './service.js';
import { actionFromForm, alertForm, alertFromForm, editedConfig } from './form-page.js';



export const AlertPages = ['Alerts/Management.html', 'Alerts/New.html', 'Alerts/Edit.html', 'Alerts/Finish.html'] as const;
export type AlertPage = (typeof AlertPages)[number];

export interface PageRequest {
  page: string;
  parameters?: string;
  selectedTargets?: string;
  settings?: string;
}

export interface PageAnswer {
  HTML: string;
  EditableSettings: { Root: Record<string, unknown> };
}

interface ManagementParams {
  Action?: 'DeleteAlert' | 'RemoveHosts' | 'AddHosts' | 'DeleteAction';
  AlertID?: number;
  ActionID?: number;
  Targets?: (number | string)[];
  AlertName?: string;
}

function parseJson<T>(text: string | undefined, what: string, fallback: T): T {
  if (text === undefined || text === '') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw badRequest(`${what} must be JSON.`);
  }
}

/** Target ids from UniqueIDs ("7", "7_h_3"), header rows included; anything else refused. */
export function targetIdsOf(list: unknown): number[] {
  if (!Array.isArray(list)) throw badRequest('selectedTargets must be a JSON list of target UniqueIDs.');
  const ids = list.map((x) => {
    const m = /^(\d{1,10})(?:_h_\d{1,3})?$/.exec(String(x));
    if (!m) throw badRequest(`"${String(x).slice(0, 40)}" is not a target UniqueID.`);
    return Number(m[1]);
  });
  return [...new Set(ids)];
}

function describeAction(kind: ActionKind, c: ActionConfig): string {
  const x = c as Record<string, unknown>;
  switch (kind) {
    case 'email':
      return `E-mail to ${x.To}`;
    case 'webhook':
      return `${x.Format === 'custom' ? 'Webhook' : String(x.Format)} ${x.Method} ${String(x.Url).replace(/\?.*$/, '')}`;
    case 'comment':
      return 'Comment on the graph';
    case 'summary':
      return `${x.Mode === 'add' ? 'Add to' : 'Remove from'} summary ${x.SummaryID}`;
    case 'log':
      return 'Write a log line';
    case 'export':
      return 'Export a data file';
  }
}

/**
 * A button that loads a page. `confirm`: the console asks first in its own dialog (title, the
 * question, the confirming button's label), never the browser's confirm box.
 */
const load = (page: AlertPage, params: unknown, label: string, opts: { modal?: boolean; cls?: string; confirm?: { title: string; message: string; label: string } } = {}) =>
  html`<button type="button" class="button ${opts.cls ?? 'secondary'}" data-page="${page}" data-params="${json(params)}"${opts.modal ? html` data-modal="true"` : ''}${
    opts.confirm ? html` data-confirm="${opts.confirm.message}" data-confirm-title="${opts.confirm.title}" data-confirm-label="${opts.confirm.label}"` : ''
  }>${label}</button>`;

const seconds = (s: number) => (s % 60 === 0 && s > 0 ? `${s / 60} min` : `${s} s`);

/** For and Recover in words (conditions on samples only). */
function hysteresisText(a: AlertDto): string {
  if (a.Condition.Kind === 'agentOffline' || a.Condition.Kind === 'routeChanged') return '';
  return `; starts ${a.ForSeconds ? `after holding ${seconds(a.ForSeconds)}` : 'at once'}, ends ${a.RecoverSeconds ? `after ${seconds(a.RecoverSeconds)} without holding` : 'at once'}`;
}

function alertCard(a: AlertDto, selected: number[]): Markup {
  const watchesSelected = selected.filter((t) => a.Targets.includes(t));
  return html`<section class="alert-card" data-alert-id="${a.AlertID}">
  <h3>${a.Name}${a.Enabled ? '' : html` <small>(off)</small>`}</h3>
  <p class="alert-condition">${a.ConditionText}${hysteresisText(a)}; notifies on ${a.Events.join(', ')}</p>
  <p class="alert-targets">Watching ${a.Targets.length} target${a.Targets.length === 1 ? '' : 's'}${watchesSelected.length ? ` (${watchesSelected.length} selected)` : ''}${a.Firing.length ? html`; <strong class="alert-firing">firing on ${a.Firing.join(', ')}</strong>` : ''}</p>
  ${a.LastAnswer ? html`<p class="alert-answer">Last result: ${a.LastAnswer}</p>` : ''}
  ${a.LastError ? html`<p class="alert-error" role="alert">${a.LastError}</p>` : ''}
  ${a.Pending ? html`<p class="alert-pending">${a.Pending} notification${a.Pending === 1 ? '' : 's'} waiting</p>` : ''}
  <ul class="alert-actions">${a.Actions.map(
    (x) => html`<li>${describeAction(x.Kind, x.Config)} ${load('Alerts/Management.html', { Action: 'DeleteAction', ActionID: x.ActionID }, 'Remove', {
      cls: 'link',
      confirm: { title: 'Remove action', message: `Remove "${describeAction(x.Kind, x.Config)}" from the alert "${a.Name}"? Its waiting notifications are cancelled.`, label: 'Remove' },
    })}</li>`,
  )}</ul>
  <div class="alert-buttons">
    ${selected.length ? load('Alerts/Management.html', { Action: 'AddHosts', AlertID: a.AlertID }, 'Add selected') : ''}
    ${watchesSelected.length ? load('Alerts/Management.html', { Action: 'RemoveHosts', AlertID: a.AlertID }, 'Remove selected') : ''}
    ${load('Alerts/Edit.html', { AlertID: a.AlertID }, 'Edit', { modal: true })}
    ${load('Alerts/Management.html', { Action: 'DeleteAlert', AlertID: a.AlertID, AlertName: a.Name }, 'Delete alert', {
      cls: 'danger',
      confirm: { title: 'Delete alert', message: `Delete the alert "${a.Name}"? It stops watching its targets and its waiting notifications are cancelled.`, label: 'Delete' },
    })}
  </div>
</section>`;
}

/** Cards per page: the alerts watching the selection first, newest first; a page stays small at 10,000 alerts. */
export const MaxCards = 200;

function managementPage(all: AlertDto[], selected: number[], notice: string): Markup {
  const watching = (a: AlertDto) => selected.some((t) => a.Targets.includes(t));
  const alerts = [...all].sort((a, b) => Number(watching(b)) - Number(watching(a)) || b.AlertID - a.AlertID).slice(0, MaxCards);
  return html`<div class="alerts-page" data-page-name="Alerts/Management.html">
  <h2>Alerts</h2>
  ${notice ? html`<p class="alert-notice" role="status">${notice}</p>` : ''}
  <p>${selected.length ? `${selected.length} target${selected.length === 1 ? '' : 's'} selected.` : 'Select targets in the grid to add them to an alert.'}</p>
  ${load('Alerts/New.html', {}, 'New alert...', { modal: true, cls: 'primary' })}
  ${all.length > alerts.length ? html`<p class="alerts-more">Showing ${alerts.length} of ${all.length} alerts: those watching the selected targets first.</p>` : ''}
  ${alerts.length ? alerts.map((a) => alertCard(a, selected)) : html`<p class="alerts-empty">No alerts yet.</p>`}
</div>`;
}

function finishPage(a: AlertDto, edited: boolean): Markup {
  return html`<div class="alerts-page" data-page-name="Alerts/Finish.html">
  <h2>${edited ? 'Alert saved' : 'Alert created'}</h2>
  <p class="alert-notice" role="status">The alert "${a.Name}" watches ${a.Targets.length} target${a.Targets.length === 1 ? '' : 's'}: ${a.ConditionText}.</p>
  ${load('Alerts/Management.html', {}, 'Back to alerts', { cls: 'primary' })}
</div>`;
}

export function parseSerialized(text: string): Record<string, unknown> {
  const data = parseJson<unknown>(text, 'SerializedData', undefined);
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw badRequest('SerializedData must be a JSON object of the form fields.');
  return data as Record<string, unknown>;
}

/** GET /cmd/getpage: runs the page's action (Management), then renders the page. */
export async function getPage(alerts: AlertService, p: Principal, req: PageRequest): Promise<PageAnswer> {
  if (!(AlertPages as readonly string[]).includes(req.page)) throw badRequest(`Unknown page "${req.page.slice(0, 80)}": one of ${AlertPages.join(', ')}.`);
  const params = parseJson<Record<string, unknown>>(req.parameters, 'parameters', {});
  if (!params || typeof params !== 'object' || Array.isArray(params)) throw badRequest('parameters must be a JSON object.');
  const selected = targetIdsOf(parseJson<unknown>(req.selectedTargets, 'selectedTargets', []));
  const firstHop = (() => {
    const first = parseJson<unknown[]>(req.selectedTargets, 'selectedTargets', [])[0];
    const m = /_h_(\d+)$/.exec(String(first ?? ''));
    return m ? Number(m[1]) : 0;
  })();
  let page: Markup;
  if (req.page === 'Alerts/Management.html') {
    const mp = params as ManagementParams;
    let notice = '';
    const targets = mp.Targets ? targetIdsOf(mp.Targets) : selected;
    switch (mp.Action) {
      case undefined:
        break;
      case 'DeleteAlert':
        await alerts.deleteAlert(p, requireId(mp.AlertID, 'AlertID'));
        notice = `Alert "${mp.AlertName ?? mp.AlertID}" deleted.`;
        break;
      case 'AddHosts':
      case 'RemoveHosts':
        if (!targets.length) throw badRequest('Select one or more targets first.');
        await alerts.changeTargets(p, requireId(mp.AlertID, 'AlertID'), targets, mp.Action === 'AddHosts');
        notice = `${targets.length} target${targets.length === 1 ? '' : 's'} ${mp.Action === 'AddHosts' ? 'added' : 'removed'}.`;
        break;
      case 'DeleteAction':
        await alerts.deleteAction(p, requireId(mp.ActionID, 'ActionID'));
        notice = 'Action removed.';
        break;
      default:
        throw badRequest('Action must be DeleteAlert, RemoveHosts, AddHosts or DeleteAction.');
    }
    page = managementPage(await alerts.listAlerts(p), selected, notice);
  } else if (req.page === 'Alerts/New.html') {
    await alerts.listAlerts(p); // the claim check
    page = alertForm(selected, firstHop, undefined, describeAction);
  } else if (req.page === 'Alerts/Edit.html') {
    page = alertForm(selected, firstHop, await alerts.getAlert(p, requireId(params.AlertID, 'AlertID')), describeAction);
  } else {
    page = finishPage(await alerts.getAlert(p, requireId(params.AlertID, 'AlertID')), params.Edited === true);
  }
  return { HTML: page.text, EditableSettings: { Root: { Page: req.page, SelectedTargets: selected } } };
}

function requireId(v: unknown, name: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 2147483647) throw badRequest(`${name} is required.`);
  return n;
}

/**
 * The finishing call: creates the alert from the form on the selected targets, or, with the
 * form's AlertID, saves the edited alert through the same update as PUT /api/alerts/:id (its
 * targets stay; the form's action replaces the one it was filled from, its other settings
 * such as webhook headers kept; the alert's other actions stay). Answers Finish.html.
 */
export async function finishAlert(alerts: AlertService, p: Principal, body: { SerializedData: string; SessionID?: number; HostID?: number; SelectedTargets?: string }): Promise<PageAnswer> {
  const data = parseSerialized(body.SerializedData);
  if (data.AlertID !== undefined && data.AlertID !== '') {
    const id = requireId(data.AlertID, 'AlertID');
    const before = await alerts.getAlert(p, id);
    const input = alertFromForm(data, before.Targets);
    const edited = input.Actions[0];
    const actionId = data.ActionID === undefined || data.ActionID === '' ? undefined : requireId(data.ActionID, 'ActionID');
    const was = before.Actions.find((x) => x.ActionID === actionId);
    const actions = before.Actions.filter((x) => x !== was).map((x) => ({ ActionID: x.ActionID, Kind: x.Kind, Config: x.Config }));
    // Same kind: its id (its queued notifications stay) and the settings the form does not show.
    const mine = was && was.Kind === edited.Kind ? { ActionID: was.ActionID, Kind: edited.Kind, Config: editedConfig(edited.Kind, was.Config, edited.Config) } : edited;
    const saved = await alerts.updateAlert(p, id, { ...input, Actions: [mine, ...actions] });
    return getPage(alerts, p, { page: 'Alerts/Finish.html', parameters: JSON.stringify({ AlertID: saved.AlertID, Edited: true }) });
  }
  const selected = targetIdsOf(parseJson<unknown>(body.SelectedTargets, 'SelectedTargets', []));
  const targets = selected.length ? selected : body.SessionID ? [body.SessionID] : [];
  const created = await alerts.createAlert(p, alertFromForm(data, targets));
  return getPage(alerts, p, { page: 'Alerts/Finish.html', parameters: JSON.stringify({ AlertID: created.AlertID }) });
}

/**
 * "Send test" of the form's action. From the edit form (AlertID and ActionID), the action as
 * Save would store it: what the form does not show (a webhook's Headers) comes from the stored
 * action, so the test calls what the alert will call.
 */
export async function actionToTest(alerts: AlertService, p: Principal, data: Record<string, unknown>): Promise<{ Kind: ActionKind; Config: ActionConfig }> {
  const action = actionFromForm(data);
  if (data.AlertID === undefined || data.AlertID === '' || data.ActionID === undefined || data.ActionID === '') return action;
  const stored = (await alerts.getAlert(p, requireId(data.AlertID, 'AlertID'))).Actions.find((x) => x.ActionID === Number(data.ActionID));
  return stored && stored.Kind === action.Kind ? { Kind: action.Kind, Config: editedConfig(action.Kind, stored.Config, action.Config) } : action;
}
