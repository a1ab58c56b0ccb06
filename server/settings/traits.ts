// The traits of the settings tree (spec 2 section 3 "Trait"): one per setting of the
// catalogue, placed like the settings tree, `*` standing for a configuration's ID.
import type { Trait, TraitNode } from '../contract/settings.js';
import { defsOf, type SettingDef, type SettingGroup } from './catalogue.js';
import { ClientList, GeneralPath, ServerList } from './tree.js';

export function traitOf(def: SettingDef, path: string, overriddenBy?: string): Trait {
  return {
    Name: def.name,
    Type: def.type,
    Setting: path,
    Label: def.label,
    Hint: def.hint,
    Validation: def.validation,
    Content: def.content ?? '',
    Attributes: { MaxChars: def.maxChars ?? null, ID: def.editor ?? null, Items: def.items ?? [], ...(overriddenBy ? { OverriddenBy: overriddenBy } : {}) },
  };
}

const pathOf = (group: SettingGroup, id: number | '*') => (group === 'General' ? GeneralPath : `${group === 'ClientConfiguration' ? ClientList : ServerList}.${id}`);

/** The traits of one group; configuration paths name `id`; `overrides`: setting name -> what overrides it (appliance.ts). */
export function traitsOf(group: SettingGroup, id: number | '*', cloud: boolean, overrides: Record<string, string> = {}): Trait[] {
  return defsOf(group)
    .filter((d) => !(cloud && d.selfHostedOnly))
    .map((d) => traitOf(d, `${pathOf(group, id)}.${d.name}`, group === 'General' ? overrides[d.name] : undefined));
}

const node = (Name: string, Children: TraitNode[], trait: Trait | null = null): TraitNode => ({ Name, Trait: trait, Children });
const leaves = (traits: Trait[]) => traits.map((t) => node(t.Name, [], t));

export function traitTree(cloud: boolean, overrides: Record<string, string> = {}): TraitNode {
  return node('Root', [
    node('ClientSettings', [
      node('General', leaves(traitsOf('General', '*', cloud, overrides))),
      node('Configurations', [node('*', leaves(traitsOf('ClientConfiguration', '*', cloud)))]),
    ]),
    node('ServerSettings', [node('Configurations', [node('*', leaves(traitsOf('ServerConfiguration', '*', cloud)))])]),
  ]);
}
