import { describe, expect, it } from 'vitest';
import type { SettingsNode } from '../../../../server/contract/settings';
import { currentValue, keepKnown, NoPending, pendingCount, saveTree, setOrder, setValue, valueAt } from './pending';

const leaf = (Name: string, Value: SettingsNode['Value']): SettingsNode => ({ Name, Type: 4, ComplexType: '', Children: [], Value });
const group = (Name: string, Children: SettingsNode[]): SettingsNode => ({ Name, Type: 0, ComplexType: '', Children, Value: null });
const item = (id: number, rest: SettingsNode[]) => group(String(id), [leaf('ID', id), ...rest]);
const root = group('Root', [
  group('ClientSettings', [
    group('General', [leaf('DynamicDnsMode', 1)]),
    group('Configurations', [item(1, [leaf('Warn', 100)]), item(2, [leaf('Warn', 20)])]),
  ]),
  group('ServerSettings', [group('Configurations', [item(1, [leaf('TcpPort', 80)]), item(2, [leaf('TcpPort', 80)])])]),
]);

describe('pending settings changes', () => {
  it('counts changed values; setting a value back drops the change', () => {
    let p = setValue(root, NoPending, 'ClientSettings.Configurations.2.Warn', 30);
    p = setValue(root, p, 'ServerSettings.Configurations.1.TcpPort', 443);
    expect(pendingCount(p)).toBe(2);
    expect(currentValue(root, p, 'ServerSettings.Configurations.1.TcpPort')).toBe(443);
    p = setValue(root, p, 'ServerSettings.Configurations.1.TcpPort', 80);
    expect(pendingCount(p)).toBe(1);
  });

  it('names a path that does not exist', () => {
    expect(() => valueAt(root, 'ClientSettings.Nowhere')).toThrow('Setting ClientSettings.Nowhere not found');
  });

  it('saves only changed values, each configuration with its ID', () => {
    let p = setValue(root, NoPending, 'ClientSettings.Configurations.2.Warn', 30);
    p = setValue(root, p, 'ClientSettings.General.DynamicDnsMode', 0);
    const t = saveTree(p);
    expect(t.Children.map((c) => c.Name)).toEqual(['ClientSettings']);
    const client = t.Children[0];
    const configs = client.Children.find((c) => c.Name === 'Configurations')!;
    expect(configs.Children).toHaveLength(1);
    expect(configs.Children[0].Children.map((c) => [c.Name, c.Value])).toEqual([['ID', 2], ['Warn', 30]]);
    expect(client.Children.find((c) => c.Name === 'General')!.Children.map((c) => [c.Name, c.Value])).toEqual([['DynamicDnsMode', 0]]);
  });

  it('counts a reorder as one change and sends every ID in the new order', () => {
    const p = setOrder(root, NoPending, [2, 1]);
    expect(pendingCount(p)).toBe(1);
    const list = saveTree(p).Children[0].Children[0];
    expect(list.Children.map((c) => c.Name)).toEqual(['2', '1']);
    expect(setOrder(root, p, [1, 2]).order).toBeNull();
  });

  it('drops pending values of configurations that are gone', () => {
    const p = setValue(root, NoPending, 'ClientSettings.Configurations.2.Warn', 30);
    const fewer = group('Root', [group('ClientSettings', [group('Configurations', [item(1, [leaf('Warn', 100)])])]), group('ServerSettings', [group('Configurations', [item(1, [])])])]);
    expect(pendingCount(keepKnown(fewer, p))).toBe(0);
  });
});
