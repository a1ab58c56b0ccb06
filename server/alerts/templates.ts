// Notification texts and webhook bodies. A webhook template is JSON: variables ($host, $hop,
// $loss, $latency, $time, $agent, $link, $alert, $event, $condition, $jitter, $mos) are
// replaced inside its string values after parsing, so a value can never break out of its
// string nor add keys, whatever a host name or alert name contains. Mail HTML escapes them.

import type { AlertEvent, WebhookFormat } from '../contract/alerts.js';

export interface NotificationVariables {
  alert: string;
  event: AlertEvent;
  condition: string;
  host: string;
  hop: string;
  loss: string;
  latency: string;
  jitter: string;
  mos: string;
  time: string;
  agent: string;
  link: string;
  /** Start/end pairs the minimum repeat held back before this message ('0' none; absent in rows queued by older versions). */
  flapped?: string;
}


export const VariableNames = ['alert', 'event', 'condition', 'host', 'hop', 'loss', 'latency', 'jitter', 'mos', 'time', 'agent', 'link', 'flapped'] as const;

const eventWords: Record<AlertEvent, string> = {
  start: 'started',
  end: 'ended',
  holds: 'still holds',
  notHolds: 'does not hold',
};

const DefaultText = '[Hopwatch] $alert $eventWords on $host: $condition (loss $loss%, latency $latency ms at $time via $agent) $link';

/** The event in words, with what the minimum repeat held back: "started (flapped 7 times since the last message)". */
export function eventInWords(v: NotificationVariables): string {
  const n = Number(v.flapped ?? 0);
  return n > 0 ? `${eventWords[v.event]} (flapped ${n} time${n === 1 ? '' : 's'} since the last message)` : eventWords[v.event];
}

/** Replaces $name with its value (longest names first: $latency is not $l + atency). */
export function substitute(text: string, v: NotificationVariables): string {
  return text.replace(/\$(eventWords|condition|flapped|latency|jitter|alert|event|agent|host|loss|time|link|hop|mos)\b/g, (_, name: string) =>
    name === 'eventWords' ? eventInWords(v) : name === 'flapped' ? (v.flapped ?? '0') : String(v[name as keyof NotificationVariables]),
  );
}

export const summaryLine = (v: NotificationVariables) => substitute(DefaultText, v).trim();


/** Ready bodies for the services people use; each is a JSON template like a custom one. */
export const PresetTemplates: Record<Exclude<WebhookFormat, 'custom'>, string> = {
  // Slack incoming webhook: {"text"}.
  slack: JSON.stringify({ text: DefaultText }),
  // Microsoft Teams incoming webhook (MessageCard).
  teams: JSON.stringify({ '@type': 'MessageCard', '@context': 'https://schema.org/extensions', summary: '$alert $eventWords', title: '$alert $eventWords on $host', text: '$condition. Loss $loss%, latency $latency ms, jitter $jitter ms at $time via $agent. $link' }),
  // Discord webhook: {"content"}.
  discord: JSON.stringify({ content: DefaultText }),
  // ntfy JSON publishing (POST to the server's root URL; the topic in the body).
  ntfy: JSON.stringify({ topic: 'hopwatch', title: '$alert $eventWords on $host', message: '$condition. Loss $loss%, latency $latency ms at $time via $agent.', click: '$link', tags: ['warning'] }),
  // Gotify: POST /message?token=...
  gotify: JSON.stringify({ title: '$alert $eventWords on $host', message: '$condition. Loss $loss%, latency $latency ms at $time via $agent. $link', priority: 5 }),
};

export const MaxTemplateLength = 16 * 1024;

/** A message for a template that is not usable, or undefined. */
export function templateProblem(template: string): string | undefined {
  if (template.length > MaxTemplateLength) return `A webhook template has at most ${MaxTemplateLength} characters.`;
  try {
    JSON.parse(template);
  } catch (e) {
    return `The webhook template must be JSON (variables go inside strings, e.g. "$host"): ${(e as Error).message}`;
  }
  return undefined;
}

function fill(value: unknown, v: NotificationVariables): unknown {
  if (typeof value === 'string') return substitute(value, v);
  if (Array.isArray(value)) return value.map((x) => fill(x, v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, fill(x, v)]));
  return value;
}

/** The body a webhook sends: the template (or the format's preset) with the variables in its strings. */
export function webhookBody(format: WebhookFormat, template: string | undefined, v: NotificationVariables): string {
  // Blank is no template (a custom one stored blank before Send test refused it gets the default text).
  const given = template?.trim() ? template : undefined;
  const t = given ?? (format === 'custom' ? JSON.stringify({ text: DefaultText }) : PresetTemplates[format]);
  return JSON.stringify(fill(JSON.parse(t), v));
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => escapes[c]);

/** The mail of a notification: the subject and the text, and HTML with every value escaped. */
export function mailOf(v: NotificationVariables, subjectTemplate?: string): { subject: string; text: string; html: string } {
  const subject = substitute(subjectTemplate || '[Hopwatch] $alert $eventWords on $host', v).replace(/[\r\n]+/g, ' ');
  const rows: [string, string][] = [
    ['Alert', v.alert],
    ['Event', eventInWords(v)],
    ['Condition', v.condition],
    ['Target', v.host],
    ['Hop', v.hop],
    ['Loss', `${v.loss}%`],
    ['Latency', `${v.latency} ms`],
    ['Jitter', `${v.jitter} ms`],
    ['MOS', v.mos],
    ['Time', v.time],
    ['Agent', v.agent],
  ];
  const text = rows.map(([k, x]) => `${k}: ${x}`).join('\n') + (v.link ? `\n\n${v.link}\n` : '\n');
  const html =
    `<p>${escapeHtml(subject)}</p><table>` +
    rows.map(([k, x]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(x)}</td></tr>`).join('') +
    `</table>` +
    (v.link ? `<p><a href="${escapeHtml(v.link)}">${escapeHtml(v.link)}</a></p>` : '');
  return { subject, text, html };
}
