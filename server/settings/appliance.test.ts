// The appliance settings of Settings > General in the pure parts: offered only self-hosted,
// kept out of the account's General values, refused by a cloud save, and the override notes.
import { describe, expect, it } from 'vitest';
import { DeploymentMode, LicenseMode } from '../contract/account.js';
import type { SettingsNode, TraitNode } from '../contract/settings.js';
import { applianceOverrides } from './appliance.js';
import { buildTree, generalValues, readChanges } from './tree.js';
import { traitTree } from './traits.js';

const names = (n: SettingsNode | TraitNode | undefined) => (n?.Children ?? []).map((c) => c.Name);
const generalOf = <T extends SettingsNode | TraitNode>(root: T) => (root.Children as T[]).find((n) => n.Name === 'ClientSettings')!.Children.find((n) => n.Name === 'General') as T;
const leaf = (Name: string, Value: SettingsNode['Value']): SettingsNode => ({ Name, Type: 0, ComplexType: '', Children: [], Value });
const saveOf = (values: Record<string, SettingsNode['Value']>) => ({
  Name: 'Root',
  Children: [{ Name: 'ClientSettings', Children: [{ Name: 'General', Children: Object.entries(values).map(([k, v]) => leaf(k, v)) }] }],
});
const Appliance = ['Insights', 'RetentionRawDays', 'RetentionMinuteDays'];

describe('appliance settings', () => {
  it('are in the General traits and tree self-hosted, not in the cloud flavour', () => {
    expect(names(generalOf(traitTree(false)))).toEqual(expect.arrayContaining(Appliance));
    const cloud = names(generalOf(traitTree(true)));
    for (const n of Appliance) expect(cloud).not.toContain(n);
    expect(cloud).toContain('DynamicDnsMode');
    const general = { ...generalValues({}), Insights: true, RetentionRawDays: 7, RetentionMinuteDays: 90 };
    expect(names(generalOf(buildTree(general, [], false)))).toEqual(expect.arrayContaining(Appliance));
    expect(names(generalOf(buildTree(general, [], true)))).not.toContain('Insights');
  });

  it('are not read from the account General JSON', () => {
    const values = generalValues({ Insights: true, RetentionRawDays: 3, DynamicDnsMode: 0 });
    expect(values.DynamicDnsMode).toBe(0);
    for (const n of Appliance) expect(values).not.toHaveProperty(n);
  });

  it('a self-hosted save reads them and checks them; a cloud save refuses them as unknown', () => {
    const changes = readChanges(saveOf({ Insights: true, RetentionRawDays: 14 }), [], generalValues({}), false);
    expect(changes.general).toEqual({ Insights: true, RetentionRawDays: 14 });
    expect(() => readChanges(saveOf({ RetentionMinuteDays: 0 }), [], generalValues({}), false)).toThrow(
      'Setting ClientSettings.General.RetentionMinuteDays: must be an integer from 1 to 36500',
    );
    expect(() => readChanges(saveOf({ Insights: true }), [], generalValues({}), true)).toThrow('Setting ClientSettings.General.Insights not found');
  });

  it('override notes name the variable and its value, only where one is set and only self-hosted', () => {
    const selfHosted = { deployment: DeploymentMode.SelfHosted, licenseMode: LicenseMode.Professional, insights: true, retentionRawDays: undefined, retentionMinuteDays: 12 };
    const notes = applianceOverrides(selfHosted);
    expect(Object.keys(notes).sort()).toEqual(['Insights', 'RetentionMinuteDays']);
    expect(notes.Insights).toMatch(/^HOPWATCH_INSIGHTS=true is set on this server and overrides this setting/);
    expect(notes.RetentionMinuteDays).toContain('HOPWATCH_RETENTION_MINUTE_DAYS=12');
    expect(applianceOverrides({ ...selfHosted, deployment: DeploymentMode.Cloud })).toEqual({});
    const traits = generalOf(traitTree(false, notes)).Children;
    expect(traits.find((t) => t.Name === 'Insights')!.Trait!.Attributes.OverriddenBy).toBe(notes.Insights);
    expect(traits.find((t) => t.Name === 'RetentionRawDays')!.Trait!.Attributes).not.toHaveProperty('OverriddenBy');
  });
});
