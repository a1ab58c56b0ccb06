// Every setting the editor offers (spec 2 section 2 "Settings editor", section 5 validation,
// section 9 constants): its node type, its editor (the trait) and the server's check. The
// tree, the traits, the screens and savesettings are all read from this one list, so they
// cannot disagree. docs/settings.md says what each setting does.
import { minimumPacketSize } from '../../engine/index.js';
import { NodeValueType, SettingsScreenName, type SettingValue, type TraitItem } from '../contract/settings.js';
import { parseRemoteAddress } from '../remote-server/client.js';
import { PasswordMask, RemoteKeys, RemoteServerPacketType } from '../remote-server/settings.js';
import { DefaultSidekickExternalSources } from '../contract/sidekick.js';
import { publicUrlProblem } from './public-url.js';
import { supportEmailProblem } from '../support/operator-address.js';

/** Where a setting lives: Settings > General, or one configuration in either parallel list. */
export type SettingGroup = 'General' | 'ClientConfiguration' | 'ServerConfiguration';

export interface SettingDef {
  group: SettingGroup;
  name: string;
  type: NodeValueType;
  screen: SettingsScreenName;
  label: string;
  hint: string;
  validation: string;
  content?: string;
  maxChars?: number;
  /** Editor id for the console (attributes ID). */
  editor?: string;
  items?: TraitItem[];
  /** Shown to the console but never changed by a save (a configuration's ID). */
  readOnly?: boolean;
  /** Not offered in the cloud flavour (spec: final hop only). */
  selfHostedOnly?: boolean;
  /** Stored for the whole appliance (storage_settings), not per account (server/settings/appliance.ts). */
  appliance?: boolean;
  /** Words of the problem with this value, or undefined when it is good. `item` holds the item's other values after the change. */
  check?: (value: SettingValue, item: Readonly<Record<string, SettingValue>>) => string | undefined;
}

/** The engine's types, and the remote-server type (ptTraceViaRemoteServer: another Hopwatch traces). */
export const PacketTypes = ['ICMP', 'UDP', 'TCP', RemoteServerPacketType] as const;
export type PacketTypeName = (typeof PacketTypes)[number];

const intIn = (min: number, max: number) => (v: SettingValue) =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? undefined : `must be an integer from ${min} to ${max}`;
const bool = (v: SettingValue) => (typeof v === 'boolean' ? undefined : 'must be true or false');
const text = (max: number, required: boolean) => (v: SettingValue) => {
  if (typeof v !== 'string') return 'must be text';
  if (required && v.trim() === '') return 'must not be empty';
  return v.length > max ? `must have at most ${max} characters` : undefined;
};
/**
 * A remote-server setting: empty, or a good value. Not required with the packet type: the
 * editor shows these fields only once that type is saved (spec 2 section 4); a target of a
 * configuration without them is refused when it starts (server/targets/service.ts).
 */
const remote = (rule: (v: string) => string | undefined) => (v: SettingValue) => {
  if (typeof v !== 'string') return 'must be text';
  return v === '' ? undefined : rule(v);
};
const positiveMs = (v: SettingValue) => (typeof v === 'number' && Number.isFinite(v) && v > 0 && v <= 600_000 ? undefined : 'must be a number of ms above 0 and at most 600000');

/** Packet size for a packet type: 40 when the type's name contains tcp, otherwise 56 (spec 2 sections 4 and 9). */
export const defaultPacketSize = (packetType: string) => (/tcp/i.test(packetType) ? 40 : 56);
const protocolOf = (t: SettingValue) => (t === 'TCP' ? 'tcp' : t === 'UDP' ? 'udp' : 'icmp');

export const TcpPortPresets: TraitItem[] = [
  { Value: 80, Label: 'HTTP (80)' },
  { Value: 53, Label: 'DNS (53)' },
  { Value: 21, Label: 'FTP (21)' },
  { Value: 443, Label: 'HTTPS (443)' },
];
export const InterHopDelayPresets: TraitItem[] = [
  { Value: 0, Label: 'None (all hops at once)' },
  { Value: 25, Label: '25 ms' },
  { Value: 50, Label: '50 ms' },
  { Value: 100, Label: '100 ms' },
  { Value: 250, Label: '250 ms' },
];
/** Graph scale choices; any other value above 0 is the custom scale in ms (default 250). */
export const GraphScaleItems: TraitItem[] = [
  { Value: 0, Label: 'Automatic (1.01 x the highest latency on screen)' },
  { Value: -2, Label: 'Follow the target graph scale' },
  { Value: 100, Label: '100 ms' },
  { Value: 250, Label: 'Custom' },
];

/** An address or a DNS name (Sidekick's external sources). */
const hostText = (v: SettingValue) =>
  typeof v === 'string' && /^[A-Za-z0-9.:_-]{1,253}$/.test(v.trim()) ? undefined : 'must be an address or a DNS name';

export const SettingDefs: readonly SettingDef[] = [
  // Settings > General (per account).
  {
    group: 'General', name: 'DynamicDnsMode', type: NodeValueType.Int32, screen: 'General',
    label: 'Dynamic DNS update mode', hint: 'Auto: a target named by DNS name follows its name when the address changes. Off: it keeps the first address.',
    validation: '0 (Off) or 1 (Auto)', editor: 'choice', items: [{ Value: 0, Label: 'Off' }, { Value: 1, Label: 'Auto' }],
    check: (v) => (v === 0 || v === 1 ? undefined : 'must be 0 (Off) or 1 (Auto)'),
  },
  {
    group: 'General', name: 'CreateCommentOnRouteChange', type: NodeValueType.Bool, screen: 'General',
    label: 'Create a comment when the route changes', hint: 'Adds a comment to the graph at the time a hop answers from a new address.',
    validation: 'true or false', check: bool,
  },
  {
    group: 'General', name: 'HideSettingNameOnTimegraph', type: NodeValueType.Bool, screen: 'General',
    label: 'Timegraphs: always hide the setting name', hint: 'The time graph header leaves out the configuration name.', validation: 'true or false', check: bool,
  },
  {
    group: 'General', name: 'HideAgentNameOnTimegraph', type: NodeValueType.Bool, screen: 'General',
    label: 'Timegraphs: always hide the agent name', hint: 'The time graph header leaves out the agent name.', validation: 'true or false', check: bool,
  },
  // Sidekick's two external sources (server/sidekick/, docs/sidekick.md): any address or DNS name.
  ...[1, 2].map((n): SettingDef => ({
    group: 'General', name: `SidekickExternalSource${n}`, type: NodeValueType.String, screen: 'General',
    label: `Sidekick external source ${n}`, hint: 'An address or DNS name Sidekick traces to: a well-known host on the internet, or one of your own in a closed network. Sidekick lists it before Get Started and uses it at its next start (Clear All and Restart).',
    validation: 'an address or DNS name (1-253 characters)', maxChars: 40, check: hostText,
  })),
  // Settings > General, appliance-wide (server/settings/appliance.ts: stored in storage_settings,
  // an environment variable overrides; not offered in the cloud flavour, where the operator sets them).
  {
    group: 'General', name: 'Insights', type: NodeValueType.Bool, screen: 'General', label: 'Insights',
    hint: 'Shows the Insights button on target windows: automated diagnosis of which hop is at fault. For the whole appliance.',
    validation: 'true or false', check: bool, selfHostedOnly: true, appliance: true,
  },
  {
    group: 'General', name: 'RetentionRawDays', type: NodeValueType.Int32, screen: 'General', label: 'Keep raw samples (days)',
    hint: 'Older raw samples are deleted by the daily expiry; graphs of older ranges show the rollups. For the whole appliance.',
    validation: 'integer days 1-36500', maxChars: 6, check: intIn(1, 36500), selfHostedOnly: true, appliance: true,
  },
  {
    group: 'General', name: 'RetentionMinuteDays', type: NodeValueType.Int32, screen: 'General', label: 'Keep 1-minute rollups (days)',
    hint: 'Older 1-minute rollups are deleted by the daily expiry; 10-minute and 1-hour rollups are kept. For the whole appliance.',
    validation: 'integer days 1-36500', maxChars: 6, check: intIn(1, 36500), selfHostedOnly: true, appliance: true,
  },
  {
    // server/settings/public-url.ts; the cloud flavour's operator sets HOPWATCH_PUBLIC_URL.
    group: 'General', name: 'PublicUrl', type: NodeValueType.String, screen: 'General', label: 'Public URL',
    hint: 'The address agents on other machines reach this server at, such as https://hopwatch.example.org:8080. Auto Setup links, agent install commands, activation mails and alert links ($link) name it. For the whole appliance.',
    // maxChars sizes the editor's field (10 px a character; spec 2 section 5); the check limits the length.
    validation: 'an http:// or https:// URL, or empty', maxChars: 50, check: publicUrlProblem, selfHostedOnly: true, appliance: true,
  },
  {
    // server/support/operator-address.ts: where the console's support tickets are mailed (issue 41 item 11).
    group: 'General', name: 'SupportEmail', type: NodeValueType.String, screen: 'General', label: 'Support e-mail address',
    hint: 'Support tickets sent from the console are mailed here through the mail server below, and listed for the root user under Support Tickets. Empty: HOPWATCH_SUPPORT_EMAIL, else the root user\'s own e-mail address. For the whole appliance.',
    validation: 'one e-mail address, or empty', maxChars: 40, check: supportEmailProblem, selfHostedOnly: true, appliance: true,
  },
  // A configuration, client side: name, description and display.
  { group: 'ClientConfiguration', name: 'ID', type: NodeValueType.Int32, screen: 'NamedConfig', label: 'ID', hint: '', validation: '', readOnly: true },
  {
    group: 'ClientConfiguration', name: 'Name', type: NodeValueType.String, screen: 'NamedConfig', label: 'Name',
    hint: 'Shown in the Settings picker and on the time graphs.', validation: '1-50 characters', maxChars: 50, check: text(50, true),
  },
  {
    group: 'ClientConfiguration', name: 'Description', type: NodeValueType.String, screen: 'NamedConfig', label: 'Description',
    hint: '', validation: 'at most 200 characters', maxChars: 50, check: text(200, false),
  },
  {
    group: 'ClientConfiguration', name: 'Warn', type: NodeValueType.Double, screen: 'Display', label: 'Latency warning level (ms)',
    hint: 'Hops with an average at or above this are amber.', validation: 'ms above 0, below the critical level', editor: 'ms', maxChars: 8,
    check: (v, item) => positiveMs(v) ?? (typeof item.Bad === 'number' && (v as number) >= item.Bad ? `must be below the critical level (${item.Bad} ms)` : undefined),
  },
  {
    group: 'ClientConfiguration', name: 'Bad', type: NodeValueType.Double, screen: 'Display', label: 'Latency critical level (ms)',
    hint: 'Hops with an average at or above this are red.', validation: 'ms above the warning level', editor: 'ms', maxChars: 8, check: positiveMs,
  },
  {
    group: 'ClientConfiguration', name: 'Scale', type: NodeValueType.Double, screen: 'Display', label: 'Graph scale',
    hint: 'The latency axis of the time graphs and the Graph column.', validation: 'Automatic (0), follow the target graph scale (-2), or ms above 0',
    editor: 'graphScale', items: GraphScaleItems, maxChars: 8,
    check: (v) => (v === 0 || v === -2 || (typeof v === 'number' && Number.isFinite(v) && v > 0 && v <= 600_000) ? undefined : 'must be 0 (automatic), -2 (follow the target graph scale) or ms above 0 and at most 600000'),
  },
  // A configuration, server side: the engine.
  { group: 'ServerConfiguration', name: 'ID', type: NodeValueType.Int32, screen: 'Engine', label: 'ID', hint: '', validation: '', readOnly: true },
  { group: 'ServerConfiguration', name: 'Name', type: NodeValueType.String, screen: 'NamedConfig', label: 'Name', hint: '', validation: '1-50 characters', maxChars: 50, check: text(50, true) },
  {
    group: 'ServerConfiguration', name: 'PacketType', type: NodeValueType.String, screen: 'Engine', label: 'Packet type',
    hint: 'What the probes are: ICMP echo, UDP datagrams or TCP SYNs; or Remote server: another Hopwatch runs the trace and its rounds are mirrored here.', validation: 'one of the packet types', editor: 'packetType',
    content: 'Save the change of packet type before its own fields appear.',
    check: (v) => ((PacketTypes as readonly SettingValue[]).includes(v) ? undefined : `must be one of ${PacketTypes.join(', ')}`),
  },
  {
    group: 'ServerConfiguration', name: 'TcpPort', type: NodeValueType.Int32, screen: 'Engine', label: 'TCP port', hint: '1-65535',
    validation: 'integer 1-65535', editor: 'tcpPort', items: TcpPortPresets, maxChars: 6, check: intIn(1, 65535),
  },
  {
    group: 'ServerConfiguration', name: 'UdpBeginPort', type: NodeValueType.Int32, screen: 'Engine', label: 'UDP beginning port', hint: '1-65535',
    validation: 'integer 1-65535', maxChars: 6, check: intIn(1, 65535),
  },
  {
    group: 'ServerConfiguration', name: 'UdpEndPort', type: NodeValueType.Int32, screen: 'Engine', label: 'UDP ending port', hint: '1-65535, not below the beginning port',
    validation: 'integer 1-65535, at least the beginning port', maxChars: 6,
    check: (v, item) => intIn(1, 65535)(v) ?? (typeof item.UdpBeginPort === 'number' && (v as number) < item.UdpBeginPort ? `must not be below the beginning port (${item.UdpBeginPort})` : undefined),
  },
  {
    group: 'ServerConfiguration', name: 'PacketSize', type: NodeValueType.Int32, screen: 'Engine', label: 'Packet size (bytes)',
    hint: 'Bytes of the probe as an IPv4 datagram; 56 by default, 40 for TCP.', validation: 'integer, at least the headers of the packet type, at most 65000', maxChars: 6,
    check: (v, item) => intIn(minimumPacketSize(protocolOf(item.PacketType)), 65000)(v),
  },
  {
    group: 'ServerConfiguration', name: 'Timeout', type: NodeValueType.Int32, screen: 'Engine', label: 'Timeout (ms)',
    hint: 'How long a probe is waited for before the hop counts as lost.', validation: 'integer ms 1-60000', maxChars: 6, check: intIn(1, 60000),
  },
  {
    group: 'ServerConfiguration', name: 'InterHopDelay', type: NodeValueType.Int32, screen: 'Engine', label: 'Inter-hop delay (ms)',
    hint: 'Pause between the probes of successive hops within a round.', validation: 'integer ms 0-10000', editor: 'interHopDelay', items: InterHopDelayPresets, maxChars: 6,
    check: intIn(0, 10000),
  },
  {
    group: 'ServerConfiguration', name: 'NetworkInterface', type: NodeValueType.String, screen: 'Engine', label: 'Network interface',
    hint: 'The interface probes leave from; empty lets the routing table choose.', validation: 'an interface name, or empty', editor: 'networkInterface', maxChars: 20,
    check: (v) => (typeof v === 'string' && /^[A-Za-z0-9_.:@-]{0,32}$/.test(v) ? undefined : 'must be an interface name (letters, digits, . _ - : @) or empty'),
  },
  {
    group: 'ServerConfiguration', name: 'AllowFragmentation', type: NodeValueType.Bool, screen: 'Engine', label: 'Allow fragmentation',
    hint: 'Probes larger than the path MTU are fragmented instead of refused.', validation: 'true or false', check: bool,
  },
  {
    group: 'ServerConfiguration', name: 'FinalHopOnly', type: NodeValueType.Bool, screen: 'Engine', label: 'Final hop only',
    hint: 'Probe only the target; other hops are not participating.', validation: 'true or false', check: bool, selfHostedOnly: true,
  },
  {
    group: 'ServerConfiguration', name: 'Dscp', type: NodeValueType.Int32, screen: 'Engine', label: 'DSCP',
    hint: 'Differentiated services code point on every probe (0-63; 46 is Expedited Forwarding).', validation: 'integer 0-63', maxChars: 3, check: intIn(0, 63),
  },
  // The remote-server packet type: "the agent address (should be a responding http server), an auth username and an auth password" (spec 2 section 5).
  {
    group: 'ServerConfiguration', name: 'RemoteServerAddress', type: NodeValueType.String, screen: 'Engine', selfHostedOnly: true, label: 'Remote server address',
    hint: 'The address of the other Hopwatch that runs the trace, e.g. https://hopwatch.example.net:8080 (it must answer over HTTP(S) from this server).',
    validation: 'an http:// or https:// address', maxChars: 40,
    check: remote((v) => (v.length > 300 ? 'must have at most 300 characters' : typeof parseRemoteAddress(v) === 'string' ? (parseRemoteAddress(v) as string) : undefined)),
  },
  {
    group: 'ServerConfiguration', name: 'RemoteServerUserName', type: NodeValueType.String, screen: 'Engine', selfHostedOnly: true, label: 'Remote server user name',
    hint: 'A user of the other Hopwatch with the TargetManagement permission.', validation: '1-256 characters', maxChars: 30,
    check: remote((v) => (v.length > 256 ? 'must have at most 256 characters' : undefined)),
  },
  {
    group: 'ServerConfiguration', name: 'RemoteServerPassword', type: NodeValueType.String, screen: 'Engine', selfHostedOnly: true, label: 'Remote server password',
    hint: 'Stored sealed on this server and never shown again; leave it as it is to keep the stored one.', validation: '1-1024 characters', editor: 'password', maxChars: 30,
    check: remote((v) => (v.length > 1024 ? 'must have at most 1024 characters' : undefined)),
  },
];

export const defsOf = (group: SettingGroup) => SettingDefs.filter((d) => d.group === group);
export const defOf = (group: SettingGroup, name: string) => SettingDefs.find((d) => d.group === group && d.name === name);

export const GeneralDefaults: Record<string, SettingValue> = {
  DynamicDnsMode: 1,
  CreateCommentOnRouteChange: false,
  HideSettingNameOnTimegraph: false,
  HideAgentNameOnTimegraph: false,
  SidekickExternalSource1: DefaultSidekickExternalSources[0],
  SidekickExternalSource2: DefaultSidekickExternalSources[1],
};

/** Where each engine setting is kept in configurations.engine_json (the engine's option names). */
export const EngineKeys: Record<string, string> = {
  PacketType: 'packetType',
  TcpPort: 'tcpPort',
  UdpBeginPort: 'udpBeginPort',
  UdpEndPort: 'udpEndPort',
  PacketSize: 'packetSize',
  Timeout: 'timeoutMs',
  InterHopDelay: 'interHopDelayMs',
  NetworkInterface: 'sourceInterface',
  AllowFragmentation: 'allowFragmentation',
  FinalHopOnly: 'finalHopOnly',
  Dscp: 'dscp',
  RemoteServerAddress: RemoteKeys.address,
  RemoteServerUserName: RemoteKeys.userName,
};

/** Settings whose stored value never goes back to a console (the tree shows PasswordMask when one is stored). */
export const SecretSettings: Record<string, string> = { RemoteServerPassword: RemoteKeys.password };
export { PasswordMask };

/** The engine's defaults (engine/trace/options.ts), shown for keys a configuration does not set. */
export function engineDefaults(packetType: string): Record<string, SettingValue> {
  return {
    PacketType: 'ICMP',
    TcpPort: 80,
    UdpBeginPort: 33434,
    UdpEndPort: 33534,
    PacketSize: defaultPacketSize(packetType),
    Timeout: 2000,
    InterHopDelay: 0,
    NetworkInterface: '',
    AllowFragmentation: false,
    FinalHopOnly: false,
    Dscp: 0,
    RemoteServerAddress: '',
    RemoteServerUserName: '',
    RemoteServerPassword: '',
  };
}
