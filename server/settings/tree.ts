// The settings tree (spec 2 section 3 "Settings") built from an account's stored settings, and
// a save's tree of changed values read back into them. Pure: no SQL, no events.
import { NodeValueType, type SettingsNode, type SettingValue } from '../contract/settings.js';
import { badRequest, HttpError, notFound } from '../http/errors.js';
import { defOf, defsOf, EngineKeys, engineDefaults, GeneralDefaults, PasswordMask, SecretSettings, type SettingGroup } from './catalogue.js';
import type { ConfigurationRecord } from './repository.js';
import { RemoteServerPacketType } from '../remote-server/settings.js';

const leaf = (Name: string, Type: NodeValueType, Value: SettingValue): SettingsNode => ({ Name, Type, ComplexType: '', Children: [], Value });
const group = (Name: string, ComplexType: string, Children: SettingsNode[], Type: NodeValueType = NodeValueType.None): SettingsNode => ({
  Name, Type, ComplexType, Children, Value: null,
});

export const ClientList = 'ClientSettings.Configurations';
export const ServerList = 'ServerSettings.Configurations';
export const GeneralPath = 'ClientSettings.General';

/** The account's General with the defaults for what it never set (the appliance settings are read apart: appliance.ts). */
export function generalValues(stored: Record<string, unknown>, defaults: Record<string, SettingValue> = GeneralDefaults): Record<string, SettingValue> {
  const out: Record<string, SettingValue> = {};
  for (const d of defsOf('General')) {
    if (d.appliance) continue;
    const v = stored[d.name];
    out[d.name] = d.check?.(v as SettingValue, {}) === undefined && v !== undefined ? (v as SettingValue) : defaults[d.name];
  }
  return out;
}

/** A configuration's values as the client list shows them. */
export function clientValues(c: ConfigurationRecord): Record<string, SettingValue> {
  return { ID: c.id, Name: c.name, Description: c.description, Warn: c.warn, Bad: c.bad, Scale: c.scale };
}

/** A configuration's engine values, the engine's defaults for keys it does not set. */
export function serverValues(c: ConfigurationRecord): Record<string, SettingValue> {
  const type = typeof c.engine.packetType === 'string' ? c.engine.packetType : 'ICMP';
  const out: Record<string, SettingValue> = { ID: c.id, Name: c.name };
  const defaults = engineDefaults(type);
  for (const [name, key] of Object.entries(EngineKeys)) {
    const v = c.engine[key];
    out[name] = v === undefined || v === null ? defaults[name] : (v as SettingValue);
  }
  // A stored secret shows as the mask, never as itself (sealed or not).
  for (const [name, key] of Object.entries(SecretSettings)) out[name] = typeof c.engine[key] === 'string' && c.engine[key] ? PasswordMask : '';
  return out;
}

function itemNode(g: SettingGroup, values: Record<string, SettingValue>, cloud: boolean): SettingsNode {
  const children = defsOf(g)
    .filter((d) => !(cloud && d.selfHostedOnly))
    .map((d) => leaf(d.name, d.type, values[d.name] ?? null));
  return group(String(values.ID), 'Configuration', children);
}

export function buildTree(general: Record<string, SettingValue>, configs: ConfigurationRecord[], cloud: boolean): SettingsNode {
  return group('Root', 'Settings', [
    group('ClientSettings', 'ClientSettings', [
      group('General', 'General', defsOf('General').filter((d) => !(cloud && d.selfHostedOnly)).map((d) => leaf(d.name, d.type, general[d.name] ?? null))),
      group('Configurations', 'Configurations', configs.map((c) => itemNode('ClientConfiguration', clientValues(c), cloud)), NodeValueType.List),
    ]),
    group('ServerSettings', 'ServerSettings', [
      group('Configurations', 'Configurations', configs.map((c) => itemNode('ServerConfiguration', serverValues(c), cloud)), NodeValueType.List),
    ]),
  ]);
}

export const Aliases: Record<string, string> = { General: GeneralPath, Display: ClientList, NamedConfig: ClientList, Engine: ServerList };

/** What a save changes, read from its tree of changed values. */
export interface SettingsChanges {
  general: Record<string, SettingValue>;
  /** Changed values per configuration ID, per group. */
  items: Map<number, { client: Record<string, SettingValue>; server: Record<string, SettingValue> }>;
  /** The new order of the configurations, when a list named every one of them. */
  order?: number[];
}

interface Problem {
  path: string;
  message: string;
  status: number;
}

function isNode(v: unknown): v is SettingsNode {
  return !!v && typeof v === 'object' && typeof (v as SettingsNode).Name === 'string';
}
const childrenOf = (n: SettingsNode): unknown[] => (Array.isArray(n.Children) ? n.Children : []);

/**
 * Reads the changed values out of a save's tree, checking every one against the catalogue and
 * each changed configuration as a whole. Throws one error naming every bad setting path: a
 * save is all or nothing.
 */
export function readChanges(root: unknown, configs: ConfigurationRecord[], generalNow: Record<string, SettingValue>, cloud: boolean): SettingsChanges {
  const problems: Problem[] = [];
  const bad = (path: string, message: string, status = 400) => problems.push({ path, message, status });
  const changes: SettingsChanges = { general: {}, items: new Map() };
  const byId = new Map(configs.map((c) => [c.id, c]));
  const orders: number[][] = [];

  const readValue = (g: SettingGroup, path: string, n: SettingsNode, into: Record<string, SettingValue>) => {
    const def = defOf(g, n.Name);
    if (!def || (cloud && def.selfHostedOnly)) return bad(path, `Setting ${path} not found`);
    if (!('Value' in n)) return bad(path, `Setting ${path}: a value is required`);
    into[n.Name] = n.Value;
  };

  const readList = (g: SettingGroup, listPath: string, list: SettingsNode) => {
    const ids: number[] = [];
    for (const item of childrenOf(list)) {
      if (!isNode(item)) return bad(listPath, `Setting ${listPath}: each configuration must be a node with a Name`);
      const idNode = childrenOf(item).find((c) => isNode(c) && c.Name === 'ID') as SettingsNode | undefined;
      const id = idNode?.Value;
      if (typeof id !== 'number' || !Number.isInteger(id)) {
        bad(`${listPath}.${item.Name}.ID`, `Setting ${listPath}.${item.Name}.ID is required (an integer) with every changed configuration`);
        continue;
      }
      const path = `${listPath}.${id}`;
      if (!byId.has(id)) {
        bad(path, `Setting ${path} not found`, 404);
        continue;
      }
      ids.push(id);
      const entry = changes.items.get(id) ?? { client: {}, server: {} };
      changes.items.set(id, entry);
      for (const n of childrenOf(item)) {
        if (!isNode(n)) return bad(path, `Setting ${path}: every child must be a node with a Name`);
        if (n.Name === 'ID') continue;
        readValue(g, `${path}.${n.Name}`, n, g === 'ClientConfiguration' ? entry.client : entry.server);
      }
    }
    orders.push(ids);
  };

  if (!isNode(root)) throw badRequest('Send the changed settings as Root: a tree of nodes (Name, Children, Value).');
  for (const top of childrenOf(root)) {
    if (!isNode(top)) {
      bad('Root', 'Setting Root: every child must be a node with a Name');
      continue;
    }
    for (const sub of childrenOf(top)) {
      if (!isNode(sub)) {
        bad(top.Name, `Setting ${top.Name}: every child must be a node with a Name`);
        continue;
      }
      const path = `${top.Name}.${sub.Name}`;
      if (path === GeneralPath) for (const n of childrenOf(sub)) isNode(n) ? readValue('General', `${path}.${n.Name}`, n, changes.general) : bad(path, `Setting ${path}: bad node`);
      else if (path === ClientList) readList('ClientConfiguration', path, sub);
      else if (path === ServerList) readList('ServerConfiguration', path, sub);
      else bad(path, `Setting ${path} not found`);
    }
    if (top.Name !== 'ClientSettings' && top.Name !== 'ServerSettings') bad(top.Name, `Setting ${top.Name} not found`);
  }

  // Each changed value, and the values it depends on, checked against the item as it will be.
  for (const [name, v] of Object.entries(changes.general)) {
    const def = defOf('General', name)!;
    const problem = def.readOnly ? 'cannot be changed' : def.check?.(v, { ...generalNow, ...changes.general });
    if (problem) bad(`${GeneralPath}.${name}`, `Setting ${GeneralPath}.${name}: ${problem}`);
  }
  // A change also re-checks the values whose rule reads it (Warn below Bad, end port not below begin, size fits the type).
  const partners: Record<string, string[]> = {
    Bad: ['Warn'],
    UdpBeginPort: ['UdpEndPort'],
    PacketType: ['PacketSize', 'RemoteServerAddress', 'RemoteServerUserName', 'RemoteServerPassword'],
  };
  for (const [id, entry] of changes.items) {
    const c = byId.get(id)!;
    if (entry.client.Name !== undefined && entry.server.Name !== undefined && entry.client.Name !== entry.server.Name) {
      bad(`${ServerList}.${id}.Name`, `Setting ${ServerList}.${id}.Name differs from ${ClientList}.${id}.Name: send one name`);
    }
    for (const [g, listPath, now, changed] of [
      ['ClientConfiguration', ClientList, clientValues(c), entry.client],
      ['ServerConfiguration', ServerList, serverValues(c), entry.server],
    ] as const) {
      const after = { ...now, ...changed };
      const toCheck = new Set(Object.keys(changed).flatMap((n) => [n, ...(partners[n] ?? [])]));
      // The cloud flavour does not sign in to addresses its users name (it would reach into its own network).
      if (cloud && changed.PacketType === RemoteServerPacketType) bad(`${listPath}.${id}.PacketType`, `Setting ${listPath}.${id}.PacketType: ${RemoteServerPacketType} is not offered in Hopwatch Cloud`);
      for (const name of toCheck) {
        const def = defOf(g, name);
        if (!def) continue; // a partner the flavour does not offer
        const problem = def.readOnly ? 'cannot be changed' : def.check?.(after[name], after);
        if (problem) bad(`${listPath}.${id}.${name}`, `Setting ${listPath}.${id}.${name}: ${problem}`);
      }
    }
  }
  const complete = orders.find((ids) => ids.length === configs.length && new Set(ids).size === configs.length);
  if (complete && complete.some((id, i) => id !== configs[i].id)) changes.order = complete;

  if (problems.length) {
    const status = problems.some((p) => p.status === 400) ? 400 : problems[0].status;
    const message = problems.map((p) => p.message).join('\n');
    throw status === 404 ? notFound(message) : new HttpError(status, message);
  }
  return changes;
}

/**
 * The configuration with the changes applied (engine settings under the engine's option names).
 * `seal` turns a new secret into what is stored (server/remote-server/settings.ts); the mask
 * sent back keeps the stored one, '' removes it.
 */
export function applyToConfiguration(
  c: ConfigurationRecord,
  client: Record<string, SettingValue>,
  server: Record<string, SettingValue>,
  seal: (secret: string) => string = (secret) => secret,
): ConfigurationRecord {
  const next: ConfigurationRecord = { ...c, engine: { ...c.engine } };
  const name = client.Name ?? server.Name;
  if (typeof name === 'string') next.name = name.trim();
  if (typeof client.Description === 'string') next.description = client.Description;
  if (typeof client.Warn === 'number') next.warn = client.Warn;
  if (typeof client.Bad === 'number') next.bad = client.Bad;
  if (typeof client.Scale === 'number') next.scale = client.Scale;
  for (const [settingName, v] of Object.entries(server)) {
    const secretKey = SecretSettings[settingName];
    if (secretKey) {
      if (v === '') delete next.engine[secretKey];
      else if (typeof v === 'string' && v !== PasswordMask) next.engine[secretKey] = seal(v);
      continue;
    }
    const key = EngineKeys[settingName];
    if (!key) continue;
    // An empty interface: the routing table chooses (the engine's null).
    next.engine[key] = key === 'sourceInterface' && v === '' ? null : v;
  }
  return next;
}
