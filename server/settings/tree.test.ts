// The remote-server password in the settings tree: shown only as the mask, sealed when a new
// one is saved, kept when the mask comes back, removed by ''; and the type refused in the cloud.
import { describe, expect, it } from 'vitest';
import { PasswordMask } from './catalogue.js';
import type { ConfigurationRecord } from './repository.js';
import { applyToConfiguration, readChanges, serverValues } from './tree.js';

const config = (engine: Record<string, unknown>): ConfigurationRecord => ({ id: 3, name: 'Branch', description: '', warn: 100, bad: 250, scale: 100, engine });
const seal = (secret: string) => `sealed(${secret})`;
const engineSave = (values: Record<string, unknown>) => ({
  Name: 'Root',
  Children: [{ Name: 'ServerSettings', Children: [{ Name: 'Configurations', Children: [{ Name: '3', Children: [{ Name: 'ID', Value: 3 }, ...Object.entries(values).map(([Name, Value]) => ({ Name, Value }))] }] }] }],
});

describe('the remote-server password in the settings tree', () => {
  it('is never shown: the mask when one is stored, empty otherwise', () => {
    expect(serverValues(config({ packetType: 'Remote server', remotePasswordSealed: 'sealed(pw)' })).RemoteServerPassword).toBe(PasswordMask);
    expect(serverValues(config({})).RemoteServerPassword).toBe('');
  });

  it('is sealed when new, kept when the mask comes back, removed by an empty value', () => {
    const stored = config({ packetType: 'Remote server', remotePasswordSealed: 'sealed(old)' });
    expect(applyToConfiguration(stored, {}, { RemoteServerPassword: 'new-secret' }, seal).engine.remotePasswordSealed).toBe('sealed(new-secret)');
    expect(applyToConfiguration(stored, {}, { RemoteServerPassword: PasswordMask }, seal).engine.remotePasswordSealed).toBe('sealed(old)');
    expect(applyToConfiguration(stored, {}, { RemoteServerPassword: '' }, seal).engine).not.toHaveProperty('remotePasswordSealed');
    expect(applyToConfiguration(stored, {}, { RemoteServerAddress: 'https://hw.example.net' }, seal).engine.remoteAddress).toBe('https://hw.example.net');
  });

  it('checks the address, and refuses the type in the cloud flavour', () => {
    expect(() => readChanges(engineSave({ RemoteServerAddress: 'hw.example.net' }), [config({})], {}, false)).toThrow(
      'Setting ServerSettings.Configurations.3.RemoteServerAddress: must be an http:// or https:// address',
    );
    expect(() => readChanges(engineSave({ PacketType: 'Remote server' }), [config({})], {}, true)).toThrow(
      'Setting ServerSettings.Configurations.3.PacketType: Remote server is not offered in Hopwatch Cloud',
    );
    expect(readChanges(engineSave({ PacketType: 'Remote server' }), [config({})], {}, false).items.get(3)?.server).toEqual({ PacketType: 'Remote server' });
  });
});
