// The settings editor's shapes (spec 2 sections 3 and 7 "Sessions and settings", spec 3
// sections 3 and 10): the settings tree, the traits that describe its editors, packet types,
// network interfaces and settings screens. Imported by the server and the console.

/** Spec 3 section 10 "Node value type". */
export const NodeValueType = {
  None: 0,
  String: 1,
  Bool: 2,
  Int16: 3,
  Int32: 4,
  Int64: 5,
  UInt16: 6,
  UInt32: 7,
  UInt64: 8,
  Float: 9,
  Double: 10,
  Decimal: 11,
  DateTime: 12,
  Timespan: 13,
  List: 14,
  Byte: 15,
} as const;
export type NodeValueType = (typeof NodeValueType)[keyof typeof NodeValueType];

export type SettingValue = string | number | boolean | null;

/**
 * One node of the settings tree. Settings are addressed by dotted path of node names from
 * below the root: `ClientSettings.General.DynamicDnsMode`, `ServerSettings.Configurations.3.TcpPort`
 * (a configuration's node is named by its ID, so a path stays the same when the list is reordered).
 */
export interface SettingsNode {
  Name: string;
  Type: NodeValueType;
  /** What a group node is: "Settings", "General", "Configurations", "Configuration"; "" for a value. */
  ComplexType: string;
  Children: SettingsNode[];
  Value: SettingValue;
}

export interface Settings {
  /** Short names of paths the screens use ("Display" -> "ClientSettings.Configurations"). */
  Aliases: Record<string, string>;
  Root: SettingsNode;
  /**
   * The account's settings version (an addition to the spec's shape): savesettings sends it
   * back and is refused with 409 when another console saved in between.
   */
  Version: number;
}

/** GET /api/Settings/getsettings (and the answer of savesettings, cloneconfig, createnewconfig, deleteconfig). */
export interface SettingsResult {
  Settings: Settings;
  /** cloneconfig / createnewconfig: the new configuration's ID. */
  NewConfigId?: number;
}

export interface TraitItem {
  Value: string | number;
  Label: string;
}

export interface TraitAttributes {
  /** Text inputs are MaxChars x 10 px wide. */
  MaxChars: number | null;
  /** An editor id ("tcpPort", "graphScale", "packetType", "networkInterface"...), or null for the plain editor of the Type. */
  ID: string | null;
  /** Choices (presets) of the editor. */
  Items: TraitItem[];
  /**
   * An addition: set when an environment variable of the server overrides the setting (the
   * appliance settings of Settings > General); the words the page shows beside the editor.
   */
  OverriddenBy?: string | null;
}

/** Describes the editor of one setting (spec 2 section 3 "Trait"). */
export interface Trait {
  Name: string;
  Type: NodeValueType;
  /** The setting's path; `*` stands for a configuration's ID. */
  Setting: string;
  Label: string;
  Hint: string;
  /** Words of the rule the server checks ("1-65535", "integer ms"...). */
  Validation: string;
  /** Further text shown with the editor (the engine-type warning...). */
  Content: string;
  Attributes: TraitAttributes;
}

export interface TraitNode {
  Name: string;
  Trait: Trait | null;
  Children: TraitNode[];
}

/** GET /api/Settings/getsettingtraits */
export interface SettingTraitsResult {
  Root: TraitNode;
}

/** POST /api/Settings/savesettings: only changed values, each configuration with its ID child. */
export interface SaveSettingsRequest {
  Version: number;
  Root: SettingsNode;
}

/** Spec 2 "Packet type". */
export interface PacketTypeInfo {
  ID: string;
  Name: string;
  GenericPacketType: number;
  RequiredLicenseMode: number;
}

/** Spec 2 "Network interface". ID "" is "let the routing table choose". */
export interface NetworkInterfaceInfo {
  ID: string;
  Name: string;
}

/** GET /cmd/getscreen?screenName: the traits on the screen (JSON text) and its header HTML. */
export interface SettingsScreen {
  serializedTraits: string;
  html: string;
}

/** Screens of the settings tree (spec 2 section 2 "Settings editor"). */
export const SettingsScreenName = {
  General: 'General',
  NamedConfig: 'NamedConfig',
  Display: 'Display',
  Engine: 'Engine',
} as const;
export type SettingsScreenName = (typeof SettingsScreenName)[keyof typeof SettingsScreenName];
