// GET /cmd/getscreen: a settings screen's traits (serializedTraits, the editors the console
// shows on the page) and its header as HTML. The header carries user-typed text (a
// configuration's name and description): every such value is HTML-escaped here, so no markup
// or script from a setting can run where the console shows it.
import type { SettingsScreen, Trait } from '../contract/settings.js';
import type { ConfigurationRecord } from './repository.js';
import { traitsOf } from './traits.js';

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => entities[ch]);

const Titles: Record<string, string> = {
  General: 'General',
  NamedConfig: 'Named configuration',
  Display: 'Display',
  Engine: 'Engine',
};
const Intros: Record<string, string> = {
  General: 'Settings of the whole account: how targets follow DNS names, route-change comments, what the time graphs show and which external hosts Sidekick traces. On a self-hosted appliance also Insights, how long data is kept, the public URL agents reach it at and where support tickets are mailed, which apply to the whole appliance.',
  NamedConfig: 'The name shown in the Settings picker and on the time graphs.',
  Display: 'The latency levels the grid and graphs colour by, and the scale of the graphs. Open consoles follow a saved change at once.',
  Engine: 'How the probes are sent. Saving restarts every running target that uses this configuration with the new settings.',
};

function traitsFor(screenName: string, config: ConfigurationRecord | undefined, cloud: boolean, overrides: Record<string, string>): Trait[] {
  const id = config?.id ?? '*';
  if (screenName === 'General') return traitsOf('General', '*', cloud, overrides);
  if (screenName === 'NamedConfig') return traitsOf('ClientConfiguration', id, cloud).filter((t) => t.Name === 'Name' || t.Name === 'Description');
  if (screenName === 'Display') return traitsOf('ClientConfiguration', id, cloud).filter((t) => ['Warn', 'Bad', 'Scale'].includes(t.Name));
  if (screenName === 'Engine') return traitsOf('ServerConfiguration', id, cloud).filter((t) => t.Name !== 'ID' && t.Name !== 'Name');
  return [];
}

/** The screen, or undefined for an unknown screen name. */
export function renderScreen(screenName: string, config: ConfigurationRecord | undefined, cloud: boolean, overrides: Record<string, string> = {}, notes: string[] = []): SettingsScreen | undefined {
  const title = Titles[screenName];
  if (!title) return undefined;
  const of = config && screenName !== 'General' ? ` of <q class="settings-config-name">${escapeHtml(config.name)}</q>` : '';
  const description = config && screenName !== 'General' && config.description ? `<p class="settings-config-description">${escapeHtml(config.description)}</p>` : '';
  // Read-only statements of the server's limits (the alert export quota on General): text, escaped like the rest.
  const notesHtml = notes.map((n) => `<p class="settings-screen-note">${escapeHtml(n)}</p>`).join('');
  const html = `<h2 class="settings-screen-title">${escapeHtml(title)}${of}</h2>${description}<p class="settings-screen-intro">${escapeHtml(Intros[screenName])}</p>${notesHtml}`;
  return { serializedTraits: JSON.stringify(traitsFor(screenName, config, cloud, overrides)), html };
}
