// The alerts pages the console's sidebar loads (spec 3 sections 2.7, 3.3, 7.3): GET
// /cmd/getpage answers {HTML, EditableSettings}; Alerts/Management.html also carries the
// management actions (DeleteAlert, RemoveHosts, AddHosts, DeleteAction) in its parameters.
// The console wires elements by data- attributes only (web/src/alerts/): data-page and
// data-params load a page (data-modal: as a modal), a form with data-finish sends its fields
// to the finishing call, data-test runs "Send test". No script is ever sent.
import { ActionKinds, AlertEvents, ConditionKinds, LatencyStatistics, WebhookFormats, type AlertDto, type AlertInput, type ActionKind, type ActionConfig } from '../contract/alerts.js';
import type { Principal } from '../account/principal.js';
import { badRequest } from '../http/errors.js';
import { html, json, type Markup } from './html.js';
import type { AlertService } from './service.js';

export const AlertPages = ['Alerts/Management.html', 'Alerts/New.html', 'Alerts/Finish.html'] as const;
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

const kindWords: Record<ActionKind, string> = { email: 'E-mail', webhook: 'Webhook', comment: 'Comment on graph', summary: 'Summary', log: 'Log line', export: 'Export a data file' };

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

const load = (page: AlertPage, params: unknown, label: string, opts: { modal?: boolean; cls?: string; confirm?: string } = {}) =>
  html`<button type="button" class="button ${opts.cls ?? 'secondary'}" data-page="${page}" data-params="${json(params)}"${opts.modal ? html` data-modal="true"` : ''}${opts.confirm ? html` data-confirm="${opts.confirm}"` : ''}>${label}</button>`;

function alertCard(a: AlertDto, selected: number[]): Markup {
  const watchesSelected = selected.filter((t) => a.Targets.includes(t));
  return html`<section class="alert-card" data-alert-id="${a.AlertID}">
  <h3>${a.Name}${a.Enabled ? '' : html` <small>(off)</small>`}</h3>
  <p class="alert-condition">${a.ConditionText}; notifies on ${a.Events.join(', ')}</p>
  <p class="alert-targets">Watching ${a.Targets.length} target${a.Targets.length === 1 ? '' : 's'}${watchesSelected.length ? ` (${watchesSelected.length} selected)` : ''}${a.Firing.length ? html`; <strong class="alert-firing">firing on ${a.Firing.join(', ')}</strong>` : ''}</p>
  ${a.LastAnswer ? html`<p class="alert-answer">Last result: ${a.LastAnswer}</p>` : ''}
  ${a.LastError ? html`<p class="alert-error" role="alert">${a.LastError}</p>` : ''}
  ${a.Pending ? html`<p class="alert-pending">${a.Pending} notification${a.Pending === 1 ? '' : 's'} waiting</p>` : ''}
  <ul class="alert-actions">${a.Actions.map(
    (x) => html`<li>${describeAction(x.Kind, x.Config)} ${load('Alerts/Management.html', { Action: 'DeleteAction', ActionID: x.ActionID }, 'Remove', { cls: 'link', confirm: 'Remove this action?' })}</li>`,
  )}</ul>
  <div class="alert-buttons">
    ${selected.length ? load('Alerts/Management.html', { Action: 'AddHosts', AlertID: a.AlertID }, 'Add selected') : ''}
    ${watchesSelected.length ? load('Alerts/Management.html', { Action: 'RemoveHosts', AlertID: a.AlertID }, 'Remove selected') : ''}
    ${load('Alerts/Management.html', { Action: 'DeleteAlert', AlertID: a.AlertID, AlertName: a.Name }, 'Delete alert', { cls: 'danger', confirm: `Delete the alert "${a.Name}"?` })}
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

const option = (value: string, label: string, selected = false) => html`<option value="${value}"${selected ? html` selected` : ''}>${label}</option>`;

function newPage(selected: number[], hop: number): Markup {
  return html`<form class="alerts-page alert-form" data-finish="true" data-page-name="Alerts/New.html">
  <h2>New alert</h2>
  <p>${selected.length ? `Watches the ${selected.length} selected target${selected.length === 1 ? '' : 's'}.` : 'Watches no target yet: add targets from the alerts sidebar later.'}</p>
  <label>Name <input name="Name" required maxlength="200" value="Packet loss"></label>
  <fieldset><legend>Condition</legend>
    <label>When <select name="Kind">${ConditionKinds.map((k) => option(k, k, k === 'loss'))}</select></label>
    <label>Hop (0: the target) <input name="Hop" type="number" min="0" max="255" value="${hop}"></label>
    <label>Over the last N samples <input name="Samples" type="number" min="1" max="1000" value="10"></label>
    <label>Lost (loss) <input name="Lost" type="number" min="1" max="1000" value="3"></label>
    <label>Statistic (latency) <select name="Statistic">${LatencyStatistics.map((s) => option(s, s))}</select></label>
    <label>Threshold ms (latency, jitter) <input name="ThresholdMs" type="number" min="0" step="any" value="100"></label>
    <label>MOS below (mos) <input name="Mos" type="number" min="1" max="5" step="0.1" value="3.5"></label>
    <label>Offline for more than seconds (agentOffline) <input name="OfflineSeconds" type="number" min="1" max="2678400" value="300"></label>
  </fieldset>
  <fieldset><legend>Notify when</legend>
    ${AlertEvents.map((e) => html`<label><input type="checkbox" name="Events" value="${e}"${e === 'start' || e === 'end' ? html` checked` : ''}> ${e}</label>`)}
    <label>At most every (seconds) <input name="MinRepeatSeconds" type="number" min="0" value="300"></label>
  </fieldset>
  <fieldset><legend>Action</legend>
    <label>Do <select name="ActionKind">${ActionKinds.filter((k) => k !== 'summary').map((k) => option(k, kindWords[k], k === 'comment'))}</select></label>
    <label>E-mail to <input name="To" type="text" maxlength="2000" placeholder="noc@example.org"></label>
    <label>Webhook URL <input name="Url" type="url" maxlength="2048" placeholder="https://hooks.example.org/..."></label>
    <label>Method <select name="Method">${['POST', 'PUT', 'PATCH', 'GET', 'DELETE'].map((m) => option(m, m))}</select></label>
    <label>Format <select name="Format">${WebhookFormats.map((f) => option(f, f))}</select></label>
    <label>JSON template <textarea name="Template" maxlength="16384" placeholder='{"text": "$alert $event on $host: loss $loss%"}'></textarea></label>
    <label>Text (comment, log) <input name="Text" maxlength="1000" placeholder="Alert $alert: $condition"></label>
    <button type="button" class="button secondary" data-test="true">Send test</button>
    <output class="alert-test-answer" data-test-answer="true"></output>
  </fieldset>
  <div class="alert-buttons">
    ${load('Alerts/Management.html', {}, 'Cancel')}
    <button type="submit" class="button primary">Finish</button>
  </div>
</form>`;
}

function finishPage(a: AlertDto): Markup {
  return html`<div class="alerts-page" data-page-name="Alerts/Finish.html">
  <h2>Alert created</h2>
  <p class="alert-notice" role="status">The alert "${a.Name}" watches ${a.Targets.length} target${a.Targets.length === 1 ? '' : 's'}: ${a.ConditionText}.</p>
  ${load('Alerts/Management.html', {}, 'Back to alerts', { cls: 'primary' })}
</div>`;
}

const num = (v: unknown) => (v === undefined || v === '' ? undefined : Number(v));

/** The New alert form's fields (as the console serializes them) as an alert. */
export function alertFromForm(data: Record<string, unknown>, targets: number[]): AlertInput {
  const kind = String(data.Kind ?? '') as AlertInput['Condition']['Kind'];
  const events = [data.Events ?? []].flat().map(String) as AlertInput['Events'];
  return {
    Name: String(data.Name ?? ''),
    Condition: {
      Kind: kind,
      Hop: num(data.Hop) ?? 0,
      Samples: num(data.Samples) ?? 10,
      ...(kind === 'loss' ? { Lost: num(data.Lost) } : {}),
      ...(kind === 'latency' ? { Statistic: String(data.Statistic || 'average') as never, ThresholdMs: num(data.ThresholdMs) } : {}),
      ...(kind === 'jitter' ? { ThresholdMs: num(data.ThresholdMs) } : {}),
      ...(kind === 'mos' ? { Mos: num(data.Mos) } : {}),
      ...(kind === 'agentOffline' ? { OfflineSeconds: num(data.OfflineSeconds) } : {}),
    },
    Events: events,
    MinRepeatSeconds: num(data.MinRepeatSeconds) ?? 300,
    Targets: targets,
    Actions: [actionFromForm(data)],
  };
}

export function actionFromForm(data: Record<string, unknown>): { Kind: ActionKind; Config: ActionConfig } {
  const kind = String(data.ActionKind ?? '') as ActionKind;
  switch (kind) {
    case 'email':
      return { Kind: kind, Config: { To: String(data.To ?? '') } };
    case 'webhook':
      return { Kind: kind, Config: { Method: String(data.Method ?? 'POST') as never, Url: String(data.Url ?? ''), Format: String(data.Format ?? 'custom') as never, Template: String(data.Template ?? '') } };
    case 'comment':
    case 'log':
      return { Kind: kind, Config: data.Text ? { Text: String(data.Text) } : {} };
    case 'export':
      return { Kind: kind, Config: {} };
    default:
      throw badRequest(`Choose what the alert does: ${ActionKinds.join(', ')}.`);
  }
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
    page = newPage(selected, firstHop);
  } else {
    page = finishPage(await alerts.getAlert(p, requireId(params.AlertID, 'AlertID')));
  }
  return { HTML: page.text, EditableSettings: { Root: { Page: req.page, SelectedTargets: selected } } };
}

function requireId(v: unknown, name: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 2147483647) throw badRequest(`${name} is required.`);
  return n;
}

/** The finishing call: creates the alert from the form on the selected targets, answers Finish.html. */
export async function finishAlert(alerts: AlertService, p: Principal, body: { SerializedData: string; SessionID?: number; HostID?: number; SelectedTargets?: string }): Promise<PageAnswer> {
  const data = parseSerialized(body.SerializedData);
  const selected = targetIdsOf(parseJson<unknown>(body.SelectedTargets, 'SelectedTargets', []));
  const targets = selected.length ? selected : body.SessionID ? [body.SessionID] : [];
  const created = await alerts.createAlert(p, alertFromForm(data, targets));
  return getPage(alerts, p, { page: 'Alerts/Finish.html', parameters: JSON.stringify({ AlertID: created.AlertID }) });
}
