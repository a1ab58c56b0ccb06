// The alert form (Alerts/New.html and Alerts/Edit.html, issue 41 item 8): one form to create
// and to edit an alert, showing only the fields of the chosen condition and action. Each field
// that belongs to some kinds only says so (data-when-field / data-when-values); it is rendered
// hidden and disabled when the form's current choice is another kind, and the console shows and
// hides them as the choice changes (web/src/alerts/logic/fieldVisibility.ts). Disabled fields
// are not sent. Every value (an alert's name, URL, template) goes through the escaping template.
import {
  ActionKinds,
  AlertEvents,
  ConditionKinds,
  DefaultForSeconds,
  DefaultRecoverSeconds,
  LatencyStatistics,
  MaxHysteresisSeconds,
  WebhookFormats,
  type ActionConfig,
  type ActionKind,
  type AlertDto,
  type AlertInput,
  type ConditionKind,
} from '../contract/alerts.js';
import { badRequest } from '../http/errors.js';
import { html, Markup } from './html.js';

export const ConditionWords: Record<ConditionKind, string> = {
  loss: 'Packet loss',
  latency: 'Latency',
  jitter: 'Jitter',
  mos: 'MOS (call quality)',
  unreachable: 'Target unreachable',
  routeChanged: 'Route changed',
  agentOffline: 'Agent offline',
};

export const ActionWords: Record<ActionKind, string> = { email: 'E-mail', webhook: 'Webhook', comment: 'Comment on graph', summary: 'Summary', log: 'Log line', export: 'Export a data file' };

/** The conditions decided on a window of samples: N samples, For and Recover apply to them. */
const OnSamples: ConditionKind[] = ['loss', 'latency', 'jitter', 'mos', 'unreachable'];
/** The conditions on one hop (unreachable is about the target, route changes about any hop). */
const OnAHop: ConditionKind[] = ['loss', 'latency', 'jitter', 'mos'];
/** The action kinds the form offers (a summary action needs a summary chosen: API only). */
const FormActions = ActionKinds.filter((k) => k !== 'summary');

/** The form's values: an alert being edited, or a new one's defaults. */
interface FormValues {
  alertId?: number;
  name: string;
  kind: ConditionKind;
  hop: number;
  samples: number;
  lost: number;
  statistic: string;
  thresholdMs: number;
  mos: number;
  offlineSeconds: number;
  events: string[];
  minRepeatSeconds: number;
  forSeconds: number;
  recoverSeconds: number;
  enabled: boolean;
  actionId?: number;
  actionKind: ActionKind;
  config: Record<string, unknown>;
  /** The alert's other actions (kept as they are; the form edits the first). */
  others: { kind: ActionKind; text: string }[];
}

function valuesOf(a: AlertDto | undefined, hop: number, describe: (kind: ActionKind, c: ActionConfig) => string): FormValues {
  const c = a?.Condition;
  const first = a?.Actions.find((x) => x.Kind !== 'summary');
  return {
    alertId: a?.AlertID,
    name: a?.Name ?? 'Packet loss',
    kind: c?.Kind ?? 'loss',
    hop: c?.Hop ?? hop,
    samples: c?.Samples ?? 10,
    lost: c?.Lost ?? 3,
    statistic: c?.Statistic ?? 'average',
    thresholdMs: c?.ThresholdMs ?? 100,
    mos: c?.Mos ?? 3.5,
    offlineSeconds: c?.OfflineSeconds ?? 300,
    events: a?.Events ?? ['start', 'end'],
    minRepeatSeconds: a?.MinRepeatSeconds ?? 300,
    forSeconds: a?.ForSeconds ?? DefaultForSeconds,
    recoverSeconds: a?.RecoverSeconds ?? DefaultRecoverSeconds,
    enabled: a?.Enabled ?? true,
    actionId: first?.ActionID,
    actionKind: first?.Kind ?? 'comment',
    config: (first?.Config ?? {}) as Record<string, unknown>,
    others: (a?.Actions ?? []).filter((x) => x !== first).map((x) => ({ kind: x.Kind, text: describe(x.Kind, x.Config) })),
  };
}

const option = (value: string, label: string, selected: boolean) => html`<option value="${value}"${selected ? html` selected` : ''}>${label}</option>`;

/** A field group shown only while `field` has one of `values` (hidden and disabled otherwise). */
function when(field: 'Kind' | 'ActionKind', values: readonly string[], current: string, body: Markup): Markup {
  const shown = values.includes(current);
  return html`<div class="alert-field" data-when-field="${field}" data-when-values="${values.join(' ')}"${shown ? '' : html` hidden`}>${shown ? body : disable(body)}</div>`;
}

/** The same controls, disabled: rendered hidden, they are not sent (the console enables what it shows). */
const disable = (m: Markup) => new Markup(m.text.replace(/<(input|select|textarea)\b/g, '<$1 disabled'));

const str = (v: unknown, fallback = '') => (typeof v === 'string' ? v : fallback);

/** The form, empty (New) or filled with an alert (Edit); `selected`: the selected targets of a new one. */
export function alertForm(selected: number[], hop: number, alert: AlertDto | undefined, describe: (kind: ActionKind, c: ActionConfig) => string): Markup {
  const v = valuesOf(alert, hop, describe);
  const k = v.kind;
  const act = v.actionKind;
  const c = v.config;
  const editing = v.alertId !== undefined;
  const watches = editing
    ? `Watches ${alert!.Targets.length} target${alert!.Targets.length === 1 ? '' : 's'} (add or remove them from the alerts list).`
    : selected.length
      ? `Watches the ${selected.length} selected target${selected.length === 1 ? '' : 's'}.`
      : 'Watches no target yet: add targets from the alerts sidebar later.';
  return html`<form class="alerts-page alert-form" data-finish="true" data-page-name="${editing ? 'Alerts/Edit.html' : 'Alerts/New.html'}">
  <h2>${editing ? 'Edit alert' : 'New alert'}</h2>
  <p>${watches}</p>
  ${editing ? html`<input type="hidden" name="AlertID" value="${v.alertId}">` : ''}
  ${v.actionId !== undefined ? html`<input type="hidden" name="ActionID" value="${v.actionId}">` : ''}
  <label>Name <input name="Name" required maxlength="200" value="${v.name}"></label>
  <label><input type="checkbox" name="Enabled" value="true"${v.enabled ? html` checked` : ''}> On</label>
  <fieldset><legend>Condition</legend>
    <label>When <select name="Kind" data-switch="true">${ConditionKinds.map((x) => option(x, ConditionWords[x], x === k))}</select></label>
    ${when('Kind', OnAHop, k, html`<label>Hop (0: the target) <input name="Hop" type="number" min="0" max="255" value="${v.hop}"></label>`)}
    ${when('Kind', OnSamples, k, html`<label>Over the last N samples <input name="Samples" type="number" min="1" max="1000" value="${v.samples}"></label>`)}
    ${when('Kind', ['loss'], k, html`<label>Lost at least <input name="Lost" type="number" min="1" max="1000" value="${v.lost}"></label>`)}
    ${when('Kind', ['latency'], k, html`<label>Statistic <select name="Statistic">${LatencyStatistics.map((s) => option(s, s, s === v.statistic))}</select></label>`)}
    ${when('Kind', ['latency', 'jitter'], k, html`<label>Above ms <input name="ThresholdMs" type="number" min="0" step="any" value="${v.thresholdMs}"></label>`)}
    ${when('Kind', ['mos'], k, html`<label>MOS below <input name="Mos" type="number" min="1" max="5" step="0.1" value="${v.mos}"></label>`)}
    ${when('Kind', ['agentOffline'], k, html`<label>Offline for more than seconds <input name="OfflineSeconds" type="number" min="1" max="2678400" value="${v.offlineSeconds}"></label>`)}
    ${when(
      'Kind',
      OnSamples,
      k,
      html`<label title="The condition holds this long before the alert starts (0: at once)">For (seconds) <input name="ForSeconds" type="number" min="0" max="${MaxHysteresisSeconds}" value="${v.forSeconds}"></label>
    <label title="The condition has not held for this long before the alert ends">Recover (seconds) <input name="RecoverSeconds" type="number" min="0" max="${MaxHysteresisSeconds}" value="${v.recoverSeconds}"></label>`,
    )}
  </fieldset>
  <fieldset><legend>Notify when</legend>
    ${AlertEvents.map((e) => html`<label><input type="checkbox" name="Events" value="${e}"${v.events.includes(e) ? html` checked` : ''}> ${e}</label>`)}
    <label title="Also the least time between two starts: what flaps in between is summarised in the next message">At most every (seconds) <input name="MinRepeatSeconds" type="number" min="0" value="${v.minRepeatSeconds}"></label>
  </fieldset>
  <fieldset><legend>Action</legend>
    <label>Do <select name="ActionKind" data-switch="true">${FormActions.map((x) => option(x, ActionWords[x], x === act))}</select></label>
    ${when(
      'ActionKind',
      ['email'],
      act,
      html`<label>E-mail to <input name="To" type="text" maxlength="2000" placeholder="noc@example.org" value="${act === 'email' ? str(c.To) : ''}"></label>
    <label>Subject <input name="Subject" type="text" maxlength="300" placeholder="[Hopwatch] $alert $eventWords on $host" value="${act === 'email' ? str(c.Subject) : ''}"></label>`,
    )}
    ${when(
      'ActionKind',
      ['webhook'],
      act,
      html`<label>Webhook URL <input name="Url" type="url" maxlength="2048" placeholder="https://hooks.example.org/..." value="${act === 'webhook' ? str(c.Url) : ''}"></label>
    <label>Method <select name="Method">${['POST', 'PUT', 'PATCH', 'GET', 'DELETE'].map((m) => option(m, m, m === str(c.Method, 'POST')))}</select></label>
    <label>Format <select name="Format">${WebhookFormats.map((f) => option(f, f, f === str(c.Format, 'custom')))}</select></label>
    <label>JSON template (empty: the format's preset) <textarea name="Template" maxlength="16384" placeholder='{"text": "$alert $eventWords on $host: loss $loss%"}'>${act === 'webhook' ? str(c.Template) : ''}</textarea></label>`,
    )}
    ${when('ActionKind', ['comment', 'log'], act, html`<label>Text <input name="Text" maxlength="1000" placeholder="Alert $alert: $condition" value="${act === 'comment' || act === 'log' ? str(c.Text) : ''}"></label>`)}
    ${when('ActionKind', ['export'], act, html`<label>At most samples (empty: 200000) <input name="MaxSamples" type="number" min="1" max="5000000" value="${act === 'export' && typeof c.MaxSamples === 'number' ? c.MaxSamples : ''}"></label>`)}
    <button type="button" class="button secondary" data-test="true">Send test</button>
    <output class="alert-test-answer" data-test-answer="true"></output>
    ${v.others.length ? html`<p class="alert-other-actions">Also kept as they are: ${v.others.map((o) => o.text).join('; ')}.</p>` : ''}
  </fieldset>
  <div class="alert-buttons">
    <button type="button" class="button secondary" data-page="Alerts/Management.html" data-params="{}">Cancel</button>
    <button type="submit" class="button primary">${editing ? 'Save' : 'Finish'}</button>
  </div>
</form>`;
}

const num = (v: unknown) => (v === undefined || v === '' ? undefined : Number(v));

/** The form's fields (as the console serializes them: the shown ones) as an alert. */
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
    ForSeconds: num(data.ForSeconds),
    RecoverSeconds: num(data.RecoverSeconds),
    // A form without the box (an older console) leaves the alert on.
    Enabled: data.Enabled === undefined ? true : [data.Enabled].flat().map(String).includes('true'),
    Targets: targets,
    Actions: [actionFromForm(data)],
  };
}

export function actionFromForm(data: Record<string, unknown>): { Kind: ActionKind; Config: ActionConfig } {
  const kind = String(data.ActionKind ?? '') as ActionKind;
  const text = (name: string) => (data[name] ? { [name]: String(data[name]) } : {});
  switch (kind) {
    case 'email':
      return { Kind: kind, Config: { To: String(data.To ?? ''), ...text('Subject') } };
    case 'webhook':
      return { Kind: kind, Config: { Method: String(data.Method ?? 'POST') as never, Url: String(data.Url ?? ''), Format: String(data.Format ?? 'custom') as never, Template: String(data.Template ?? '') } };
    case 'comment':
    case 'log':
      return { Kind: kind, Config: text('Text') };
    case 'export':
      return { Kind: kind, Config: num(data.MaxSamples) !== undefined ? { MaxSamples: num(data.MaxSamples) } : {} };
    default:
      throw badRequest(`Choose what the alert does: ${ActionKinds.join(', ')}.`);
  }
}

/** The configuration fields the form shows, per action kind: the form's answer is theirs. */
const FormConfigFields: Partial<Record<ActionKind, string[]>> = { email: ['To', 'Subject'], webhook: ['Method', 'Url', 'Format', 'Template'], comment: ['Text'], log: ['Text'], export: ['MaxSamples'] };

/**
 * An action edited in the form: what the form shows comes from the form (a field left empty
 * clears it); what it does not show (a webhook's Headers, set through the API) is kept.
 */
export function editedConfig(kind: ActionKind, before: ActionConfig, form: ActionConfig): ActionConfig {
  const shown = new Set(FormConfigFields[kind] ?? []);
  const kept = Object.fromEntries(Object.entries(before as Record<string, unknown>).filter(([k]) => !shown.has(k)));
  return { ...kept, ...(form as Record<string, unknown>) } as ActionConfig;
}
