// The settings editor's calls (spec 2 section 7 "Sessions and settings").
import type {
  NetworkInterfaceInfo,
  PacketTypeInfo,
  SettingsNode,
  SettingsResult,
  SettingsScreen,
  SettingTraitsResult,
} from '../../../server/contract/settings';
import { get, post, withQuery } from '../api/http';

export const getSettings = async () => (await get<SettingsResult>('/api/Settings/getsettings'))!;
export const getSettingTraits = async () => (await get<SettingTraitsResult>('/api/Settings/getsettingtraits'))!;

/** Only the changed values (see logic/pending.ts saveTree), with the version they were made on. */
export const saveSettings = async (Version: number, Root: SettingsNode) => (await post<SettingsResult>('/api/Settings/savesettings', { json: { Version, Root } }))!;

/** The pending changes go with it and are saved together with the new configuration. */
export const createNewConfig = async (Version: number, Root: SettingsNode) => (await post<SettingsResult>('/api/Settings/createnewconfig', { json: { Version, Root } }))!;
export const cloneConfig = async (configId: number, Version: number, Root: SettingsNode) =>
  (await post<SettingsResult>(withQuery('/api/Settings/cloneconfig', { configId }), { json: { Version, Root } }))!;
export const deleteConfig = async (configId: number, Version: number) => (await post<SettingsResult>(withQuery('/api/Settings/deleteconfig', { configId, Version })))!;

export const getPacketTypes = async () => (await post<PacketTypeInfo[]>('/api/Settings/getpackettypes')) ?? [];
export const getNetworkInterfaces = async (agentId?: number) => (await post<NetworkInterfaceInfo[]>(withQuery('/api/Settings/getnetworkinterfaces', { agentId }))) ?? [];
export const getScreen = async (screenName: string, configId?: number) => (await get<SettingsScreen>(withQuery('/cmd/getscreen', { screenName, configId })))!;
