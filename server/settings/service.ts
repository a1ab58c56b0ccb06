// The settings editor's operations (spec 2 section 7 "Sessions and settings"): one function per
// call, used by the REST routes. Configurations are per account; every change bumps the
// account's settings version (a save naming an older one gets 409), raises SettingsChanged for
// every console of the account and restarts the running targets whose engine settings changed.
import { networkInterfaces } from 'node:os';
import { Claim, DeploymentMode, LicenseMode } from '../contract/account.js';
import { LocalMachineAgentId, SessionState } from '../contract/sessions.js';
import type { NetworkInterfaceInfo, PacketTypeInfo, SaveSettingsRequest, SettingsResult, SettingTraitsResult, SettingsScreen, SettingValue } from '../contract/settings.js';
import { requireClaim } from '../account/authenticate.js';
import type { Principal } from '../account/principal.js';
import type { Config } from '../config.js';
import type { DomainEventBus } from '../events.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import type { Store, Queryable } from '../store/db.js';
import type { TraceRunner } from '../targets/trace-runner.js';
import { findAgent } from '../agents/repository.js';
import { sessionsInStates } from '../targets/repository.js';
import * as repo from './repository.js';
import { Aliases, applyToConfiguration, buildTree, generalValues, readChanges, ServerList } from './tree.js';
import { traitTree } from './traits.js';
import { GeneralDefaults } from './catalogue.js';
import { SidekickExternalSettingNames } from '../contract/sidekick.js';
import { renderScreen } from './screens.js';
import { requireLocalMachine } from '../accounts/local-machine.js';
import { exportUse, quotaText } from '../alerts/export-quota.js';
import { checkRemoteServer, RemoteServerError } from '../remote-server/client.js';
import { remoteAccessOf, RemoteServerPacketType, RemoteServerPacketTypeId } from '../remote-server/settings.js';
import type { PasswordSeal } from '../liveshare/secrets.js';
import { publicUrlInForce, publicUrlNote } from './public-url.js';
import { allAccountIds, applianceOverrides, applianceValues, isApplianceSetting, storeApplianceValues, type ApplianceConfig } from './appliance.js';

export interface SettingsDeps {
  store: Store;
  events: DomainEventBus;
  config: ApplianceConfig & Pick<Config, 'alertExportDir' | 'alertExportMaxBytes' | 'alertExportMaxFiles' | 'publicUrl'> & Partial<Pick<Config, 'sidekick'>>;
  runner?: TraceRunner;
  /** Seals remote-server passwords (server/remote-server/settings.ts); without it none can be saved. */
  seal?: PasswordSeal;
}

const isCloud = (deps: SettingsDeps) => deps.config.deployment === DeploymentMode.Cloud;

/**
 * The General defaults in force: Sidekick's external sources default to what
 * HOPWATCH_SIDEKICK_EXTERNAL_SOURCES sets when it is set, so the page shows what Sidekick
 * traces (issue 41 item 13; server/sidekick/service.ts externalSources reads the same).
 */
export function generalDefaults(config: Partial<Pick<Config, 'sidekick'>>): Record<string, SettingValue> {
  const fromEnvironment = config.sidekick?.externalSources;
  if (!fromEnvironment?.length) return GeneralDefaults;
  const out = { ...GeneralDefaults };
  SidekickExternalSettingNames.forEach((name, i) => {
    if (fromEnvironment[i]) out[name] = fromEnvironment[i];
  });
  return out;
}

/** The account's configurations; an account without any gets a Default one (a new account). */
async function ensureConfigurations(q: Queryable, accountId: number): Promise<repo.ConfigurationRecord[]> {
  const list = await repo.configurationsOf(q, accountId);
  if (list.length) return list;
  await repo.insertConfiguration(q, accountId, { name: 'Default', description: 'Default settings', warn: 100, bad: 250, scale: 100, engine: {} });
  return repo.configurationsOf(q, accountId);
}

async function snapshot(deps: SettingsDeps, q: Queryable, accountId: number): Promise<SettingsResult> {
  const configs = await ensureConfigurations(q, accountId);
  const account = await repo.accountSettings(q, accountId);
  const general = { ...generalValues(account.general, generalDefaults(deps.config)), ...(isCloud(deps) ? {} : await applianceValues(q, deps.config)) };
  return { Settings: { Aliases, Root: buildTree(general, configs, isCloud(deps)), Version: account.version } };
}

/** GET /api/Settings/getsettings */
export function getSettings(deps: SettingsDeps, p: Principal): Promise<SettingsResult> {
  return deps.store.exclusive((q) => snapshot(deps, q, p.accountId));
}

/** The account's General settings with defaults (used where they take effect). */
export async function generalSettings(q: Queryable, accountId: number): Promise<Record<string, SettingValue>> {
  return generalValues((await repo.accountSettings(q, accountId)).general);
}

/** GET /api/Settings/getsettingtraits */
export function getSettingTraits(deps: SettingsDeps, p: Principal): SettingTraitsResult {
  requireClaim(p, Claim.SettingsManagement);
  return { Root: traitTree(isCloud(deps), applianceOverrides(deps.config)) };
}

interface Change {
  version?: number;
  root?: unknown;
}

/**
 * Applies a save's changes and what a clone/create/delete adds, in one transaction under the
 * version check: all or nothing. Answers the new settings and the configurations whose engine
 * settings changed (their running targets restart after the commit).
 */
async function change(
  deps: SettingsDeps,
  p: Principal,
  c: Change,
  extra?: (q: Queryable, configs: repo.ConfigurationRecord[]) => Promise<{ newConfigId?: number; engineChanged?: number[]; moved?: [from: number, to: number] }>,
): Promise<SettingsResult> {
  requireClaim(p, Claim.SettingsManagement);
  // Before the transaction (it must not wait on the network): a configuration that will trace
  // via a remote server is tried with its access, so a wrong address or password is refused now.
  if (c.root !== undefined) await checkRemoteAccess(deps, p, c.root);
  let engineChanged: number[] = [];
  let moved: [number, number] | undefined;
  let applianceChanged = false;
  const result = await deps.store.transaction(async (q) => {
    const configs = await ensureConfigurations(q, p.accountId);
    const account = await repo.accountSettings(q, p.accountId);
    if (c.version !== undefined && c.version !== account.version) {
      throw conflict(
        `The settings were changed in another console since you loaded them (your version ${c.version}, now ${account.version}). Your edits are kept: look over the reloaded settings and save again.`,
      );
    }
    const generalNow = generalValues(account.general, generalDefaults(deps.config));
    const changes = c.root === undefined ? undefined : readChanges(c.root, configs, generalNow, isCloud(deps));
    // Insights and the retention days go to storage_settings (the whole appliance), the rest of General to the account.
    const accountGeneral: Record<string, SettingValue> = { ...generalNow };
    const appliance: Record<string, SettingValue> = {};
    for (const [name, v] of Object.entries(changes?.general ?? {})) (isApplianceSetting(name) ? appliance : accountGeneral)[name] = v;
    if (Object.keys(appliance).length) {
      await storeApplianceValues(q, appliance);
      applianceChanged = true;
    }
    for (const [id, entry] of changes?.items ?? []) {
      const before = configs.find((x) => x.id === id)!;
      const after = applyToConfiguration(before, entry.client, entry.server, sealWith(deps));
      await repo.updateConfiguration(q, after);
      if (JSON.stringify(after.engine) !== JSON.stringify(before.engine)) engineChanged.push(id);
    }
    if (changes?.order) for (const [i, id] of changes.order.entries()) await repo.setPosition(q, id, i + 1);
    const more = extra ? await extra(q, await repo.configurationsOf(q, p.accountId)) : {};
    engineChanged = [...engineChanged, ...(more.engineChanged ?? [])];
    moved = more.moved;
    if (!(await repo.bumpVersion(q, p.accountId, account.version, accountGeneral))) {
      throw conflict('The settings were changed in another console at the same time. Your edits are kept: save again.');
    }
    const out = await snapshot(deps, q, p.accountId);
    if (more.newConfigId !== undefined) out.NewConfigId = more.newConfigId;
    return out;
  });
  // An appliance setting concerns every account's consoles (Insights: /api/app/config changes for all).
  const told = applianceChanged ? await deps.store.read(allAccountIds) : [p.accountId];
  for (const accountId of new Set([p.accountId, ...told])) deps.events.emit('SettingsChanged', accountId);
  if (moved) deps.events.emit('SessionsChanged', p.accountId);
  await restartTargets(deps, p.accountId, moved ? [...engineChanged, moved[1]] : engineChanged);
  return result;
}

function sealWith(deps: SettingsDeps): (secret: string) => string {
  return (secret) => {
    if (!deps.seal) throw new Error('No seal for remote-server passwords on this server.');
    return deps.seal.seal(secret);
  };
}

const RemoteSettings = ['PacketType', 'RemoteServerAddress', 'RemoteServerUserName', 'RemoteServerPassword'];

/**
 * Signs in to the remote server of each configuration whose remote-server access a save
 * changes (and that traces via a remote server afterwards): 400 naming the setting when the
 * address does not answer as a Hopwatch or the user name and password are refused.
 */
async function checkRemoteAccess(deps: SettingsDeps, p: Principal, root: unknown): Promise<void> {
  const { configs, general } = await deps.store.read(async (q) => ({
    configs: await repo.configurationsOf(q, p.accountId),
    general: generalValues((await repo.accountSettings(q, p.accountId)).general, generalDefaults(deps.config)),
  }));
  let changes;
  try {
    changes = readChanges(root, configs, general, isCloud(deps));
  } catch {
    return; // the transaction refuses it with every problem named
  }
  const problems: string[] = [];
  for (const [id, entry] of changes.items) {
    if (!Object.keys(entry.server).some((n) => RemoteSettings.includes(n))) continue;
    const before = configs.find((x) => x.id === id)!;
    // The clear password: the one sent, else the stored one.
    const after = applyToConfiguration(before, {}, entry.server, (secret) => `clear:${secret}`);
    const seal = deps.seal;
    const access = seal && remoteAccessOf(after.engine, (v) => (v.startsWith('clear:') ? v.slice(6) : seal.open(v)));
    // Tried once all three are given (the editor shows them only after the type is saved).
    if (!access || !access.address || !access.userName || !access.password) continue;
    try {
      await checkRemoteServer(access);
    } catch (err) {
      if (!(err instanceof RemoteServerError)) throw err;
      const setting = err.problem === 'credentials' ? 'RemoteServerPassword' : 'RemoteServerAddress';
      problems.push(`Setting ${ServerList}.${id}.${setting}: ${err.message}`);
    }
  }
  if (problems.length) throw badRequest(problems.join('\n'));
}

/**
 * Runs every open target of the account that uses one of these configurations again with its
 * configuration's engine settings now: the old trace stops and the new one's first round starts
 * at once, so the change shows within one interval.
 */
export async function restartTargets(deps: SettingsDeps, accountId: number, configIds: number[]): Promise<number> {
  if (!deps.runner || !configIds.length) return 0;
  const ids = new Set(configIds);
  const open = await deps.store.read((q) => sessionsInStates(q, [SessionState.Active, SessionState.Pause]));
  let restarted = 0;
  for (const s of open) {
    if (s.accountId !== accountId || !ids.has(s.configurationId) || !deps.runner.agent.has(s.id)) continue;
    await deps.runner.run(s, s.state === SessionState.Pause);
    restarted++;
  }
  return restarted;
}

/** POST /api/Settings/savesettings: only changed values, each configuration with its ID. */
export function saveSettings(deps: SettingsDeps, p: Principal, body: SaveSettingsRequest): Promise<SettingsResult> {
  return change(deps, p, { version: body.Version, root: body.Root });
}

const NewConfigDefaults = { description: '', warn: 100, bad: 250, scale: 100, engine: {} };

function uniqueName(base: string, configs: repo.ConfigurationRecord[]): string {
  const names = new Set(configs.map((c) => c.name));
  const trimmed = base.slice(0, 46);
  if (!names.has(trimmed)) return trimmed;
  for (let i = 2; ; i++) if (!names.has(`${trimmed} ${i}`)) return `${trimmed} ${i}`;
}

/** POST /api/Settings/createnewconfig: saves the changed settings sent with it and adds a configuration with the defaults. */
export function createNewConfig(deps: SettingsDeps, p: Principal, body: Partial<SaveSettingsRequest> | undefined): Promise<SettingsResult> {
  return change(deps, p, { version: body?.Version, root: body?.Root }, async (q, configs) => ({
    newConfigId: await repo.insertConfiguration(q, p.accountId, { ...NewConfigDefaults, name: uniqueName('New configuration', configs) }),
  }));
}

/** POST /api/Settings/cloneconfig?configId: saves the changed settings sent with it and adds a copy of the configuration. */
export function cloneConfig(deps: SettingsDeps, p: Principal, configId: number, body: Partial<SaveSettingsRequest> | undefined): Promise<SettingsResult> {
  return change(deps, p, { version: body?.Version, root: body?.Root }, async (q, configs) => {
    const source = configs.find((c) => c.id === configId);
    if (!source) throw notFound(`Configuration ${configId} not found.`);
    const { id: _id, ...copy } = source;
    return { newConfigId: await repo.insertConfiguration(q, p.accountId, { ...copy, name: uniqueName(`Copy of ${source.name}`, configs) }) };
  });
}

/**
 * POST /api/Settings/deleteconfig?configId (the editor's Delete Configuration; the spec names
 * no path). The last configuration cannot go; targets using it move to its neighbour (the next
 * in the tree, else the one before) and restart with that one's engine settings.
 */
export function deleteConfig(deps: SettingsDeps, p: Principal, configId: number, version: number | undefined): Promise<SettingsResult> {
  return change(deps, p, { version }, async (q, configs) => {
    const i = configs.findIndex((c) => c.id === configId);
    if (i < 0) throw notFound(`Configuration ${configId} not found.`);
    if (configs.length < 2) throw conflict('The last configuration cannot be deleted: there must be at least one.');
    const neighbour = configs[i + 1] ?? configs[i - 1];
    await repo.moveSessions(q, p.accountId, configId, neighbour.id);
    await repo.deleteConfiguration(q, configId);
    return { moved: [configId, neighbour.id] };
  });
}

/** POST /api/Settings/getpackettypes */
export function getPacketTypes(p: Principal, cloud = false): PacketTypeInfo[] {
  requireClaim(p, Claim.SettingsManagement);
  return [
    { ID: 'ptICMP', Name: 'ICMP', GenericPacketType: 0, RequiredLicenseMode: LicenseMode.Standard },
    { ID: 'ptUDP', Name: 'UDP', GenericPacketType: 1, RequiredLicenseMode: LicenseMode.Standard },
    { ID: 'ptTCP', Name: 'TCP', GenericPacketType: 2, RequiredLicenseMode: LicenseMode.Standard },
    // Another Hopwatch runs the trace (its own engine settings); GenericPacketType Unsupported: no probe of this server's.
    // Self-hosted only: the cloud flavour does not sign in to addresses its users name.
    ...(cloud ? [] : [{ ID: RemoteServerPacketTypeId, Name: RemoteServerPacketType, GenericPacketType: 3, RequiredLicenseMode: LicenseMode.Standard }]),
  ];
}

export const DefaultInterface: NetworkInterfaceInfo = { ID: '', Name: 'Default (the routing table chooses)' };

/** The interfaces of this machine, as the engine names them (`ip link`). */
export function localInterfaces(): NetworkInterfaceInfo[] {
  return Object.entries(networkInterfaces()).map(([name, addrs]) => ({
    ID: name,
    Name: addrs?.length ? `${name} (${addrs.map((a) => a.address).join(', ')})` : name,
  }));
}

/** POST /api/Settings/getnetworkinterfaces[?agentId]: the interfaces of the machine that traces (Local Machine: this server). */
export async function getNetworkInterfaces(deps: SettingsDeps, p: Principal, agentId = LocalMachineAgentId): Promise<NetworkInterfaceInfo[]> {
  requireClaim(p, Claim.SettingsManagement);
  if (agentId === LocalMachineAgentId) {
    // Hosted: the provider's server and its addresses, shown only where it may be traced from.
    await deps.store.read((q) => requireLocalMachine(q, deps.config.deployment, p.accountId));
    return [DefaultInterface, ...localInterfaces()];
  }
  const agent = await deps.store.read((q) => findAgent(q, agentId));
  if (!agent || agent.accountId !== p.accountId) throw notFound(`Agent ${agentId} not found.`);
  const reported = deps.runner?.agent.links?.interfacesOf(agentId);
  if (!reported) throw conflict(`Agent ${agent.name} is not connected (or runs a version that does not report its interfaces): its interfaces are known while it is connected.`);
  return [DefaultInterface, ...reported];
}

/** GET /cmd/getscreen?screenName[&configId] */
export async function getScreen(deps: SettingsDeps, p: Principal, screenName: string, configId: number | undefined): Promise<SettingsScreen> {
  requireClaim(p, Claim.SettingsManagement);
  const configs = await deps.store.exclusive((q) => ensureConfigurations(q, p.accountId));
  const config = configId === undefined ? undefined : configs.find((c) => c.id === configId);
  if (configId !== undefined && !config) throw notFound(`Configuration ${configId} not found.`);
  // The account's alert export quota and use (server/alerts/export-quota.ts): stated here, set by the operator's environment.
  const notes = screenName === 'General' ? [quotaText({ maxBytes: deps.config.alertExportMaxBytes, maxFiles: deps.config.alertExportMaxFiles }, await exportUse(deps.config.alertExportDir, p.accountId))] : [];
  // Self-hosted, while no public URL is in force: the screen asks for it (server/settings/public-url.ts).
  const askPublicUrl = screenName === 'General' && !isCloud(deps) ? publicUrlNote(await deps.store.read((q) => publicUrlInForce(q, deps.config))) : undefined;
  if (askPublicUrl) notes.unshift(askPublicUrl);
  const screen = renderScreen(screenName, config, isCloud(deps), applianceOverrides(deps.config), notes);
  if (!screen) throw notFound(`Screen ${screenName} not found.`);
  if (screenName !== 'General' && !config) throw badRequest(`The ${screenName} screen belongs to a configuration: name it with configId.`);
  return screen;
}
