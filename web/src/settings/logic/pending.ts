// The editor's pending changes over the settings it loaded (spec 2 section 4 "Settings
// editor"): values by setting path, the "{n} changes pending" count, and the save tree that
// sends only changed values, each configuration with its ID, and every configuration's ID in
// the new order when the tree was reordered.
import { NodeValueType, type SettingsNode, type SettingValue } from '../../../../server/contract/settings';

export interface Pending {
  /** Changed values by path ("ClientSettings.Configurations.3.Warn"). */
  values: Record<string, SettingValue>;
  /** The configurations' new order, when moved. */
  order: number[] | null;
}

export const NoPending: Pending = { values: {}, order: null };

export const ClientList = 'ClientSettings.Configurations';
export const ServerList = 'ServerSettings.Configurations';

/** The node at a dotted path, or undefined. */
export function nodeAt(root: SettingsNode, path: string): SettingsNode | undefined {
  let n: SettingsNode | undefined = root;
  for (const name of path.split('.')) n = n?.Children.find((c) => c.Name === name);
  return n;
}

/** "Setting {path} not found" when the path names nothing. */
export function valueAt(root: SettingsNode, path: string): SettingValue {
  const n = nodeAt(root, path);
  if (!n) throw new Error(`Setting ${path} not found`);
  return n.Value;
}

/** The configuration IDs in the saved order. */
export const savedOrder = (root: SettingsNode): number[] => (nodeAt(root, ServerList)?.Children ?? []).map((c) => Number(c.Name));

/** The value shown: the pending one, else the saved one. */
export const currentValue = (root: SettingsNode, p: Pending, path: string): SettingValue => (path in p.values ? p.values[path] : valueAt(root, path));

/** Sets a value; setting it back to the saved value drops the change. */
export function setValue(root: SettingsNode, p: Pending, path: string, value: SettingValue): Pending {
  const values = { ...p.values };
  if (valueAt(root, path) === value) delete values[path];
  else values[path] = value;
  return { ...p, values };
}

export function setOrder(root: SettingsNode, p: Pending, order: number[]): Pending {
  const saved = savedOrder(root);
  return { ...p, order: order.every((id, i) => id === saved[i]) && order.length === saved.length ? null : order };
}

/** How many changes are pending: each changed value, and a reorder as one. */
export const pendingCount = (p: Pending): number => Object.keys(p.values).length + (p.order ? 1 : 0);

/** Drops pending values of paths the settings no longer have (a configuration deleted elsewhere). */
export function keepKnown(root: SettingsNode, p: Pending): Pending {
  const values = Object.fromEntries(Object.entries(p.values).filter(([path, v]) => nodeAt(root, path) !== undefined && valueAt(root, path) !== v));
  const ids = new Set(savedOrder(root));
  const order = p.order && p.order.length === ids.size && p.order.every((id) => ids.has(id)) ? p.order : null;
  return { values, order };
}

const leaf = (Name: string, Value: SettingValue, Type: NodeValueType = NodeValueType.None): SettingsNode => ({ Name, Type, ComplexType: '', Children: [], Value });
const group = (Name: string, Children: SettingsNode[]): SettingsNode => ({ Name, Type: NodeValueType.None, ComplexType: '', Children, Value: null });

/** The save tree: only changed values, every changed configuration with its ID child. */
export function saveTree(p: Pending): SettingsNode {
  const tops = new Map<string, Map<string, Map<string, SettingsNode[]>>>();
  const add = (top: string, sub: string, item: string, n: SettingsNode | null) => {
    const subs = tops.get(top) ?? new Map<string, Map<string, SettingsNode[]>>();
    tops.set(top, subs);
    const items = subs.get(sub) ?? new Map<string, SettingsNode[]>();
    subs.set(sub, items);
    const list = items.get(item) ?? [];
    items.set(item, list);
    if (n) list.push(n);
  };
  if (p.order) for (const id of p.order) add('ServerSettings', 'Configurations', String(id), null);
  for (const [path, value] of Object.entries(p.values)) {
    const parts = path.split('.');
    if (parts[1] === 'Configurations') add(parts[0], parts[1], parts[2], leaf(parts.slice(3).join('.'), value));
    else add(parts[0], parts[1], '', leaf(parts.slice(2).join('.'), value));
  }
  return group(
    'Root',
    [...tops].map(([top, subs]) =>
      group(
        top,
        [...subs].map(([sub, items]) =>
          sub === 'Configurations'
            ? group(sub, [...items].map(([id, leaves]) => group(id, [leaf('ID', Number(id), NodeValueType.Int32), ...leaves])))
            : group(sub, items.get('') ?? []),
        ),
      ),
    ),
  );
}
