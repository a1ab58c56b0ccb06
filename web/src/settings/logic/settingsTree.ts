// The editor's left tree (spec 2 sections 2 and 4): General, one node per named configuration
// with Display and Engine children, and the trailing "New named config"; which buttons show;
// the neighbour selected after a delete.
export type EntryKey = { kind: 'General' } | { kind: 'NamedConfig' | 'Display' | 'Engine'; configId: number } | { kind: 'New' };

export interface TreeEntry {
  key: EntryKey;
  label: string;
  depth: number;
}

export const NewNamedConfigLabel = 'New named config';

export const sameEntry = (a: EntryKey, b: EntryKey) => a.kind === b.kind && ('configId' in a ? a.configId : 0) === ('configId' in b ? b.configId : 0);
export const entryId = (k: EntryKey) => ('configId' in k ? `${k.kind}:${k.configId}` : k.kind);

export function treeEntries(configs: readonly { id: number; name: string }[]): TreeEntry[] {
  return [
    { key: { kind: 'General' }, label: 'General', depth: 0 },
    ...configs.flatMap((c) => [
      { key: { kind: 'NamedConfig', configId: c.id } as EntryKey, label: c.name, depth: 0 },
      { key: { kind: 'Display', configId: c.id } as EntryKey, label: 'Display', depth: 1 },
      { key: { kind: 'Engine', configId: c.id } as EntryKey, label: 'Engine', depth: 1 },
    ]),
    { key: { kind: 'New' }, label: NewNamedConfigLabel, depth: 0 },
  ];
}

/** Clone Configuration shows only when the entry belongs to a configuration. */
export const canClone = (k: EntryKey) => 'configId' in k;

/** Delete only when more than one configuration exists in both the client and the server list. */
export const canDelete = (k: EntryKey, clientCount: number, serverCount: number) => 'configId' in k && clientCount > 1 && serverCount > 1;

/** After deleting `deletedId`, the neighbouring configuration (the next, else the one before). */
export function neighbourAfterDelete(order: readonly number[], deletedId: number): EntryKey {
  const i = order.indexOf(deletedId);
  const rest = order.filter((id) => id !== deletedId);
  const id = rest[Math.min(Math.max(i, 0), rest.length - 1)];
  return id === undefined ? { kind: 'General' } : { kind: 'NamedConfig', configId: id };
}

/** A configuration moved onto another's place (drag and drop). */
export function moveConfig(order: readonly number[], moved: number, onto: number): number[] {
  const from = order.indexOf(moved);
  const to = order.indexOf(onto);
  if (from < 0 || to < 0 || from === to) return [...order];
  const next = order.filter((id) => id !== moved);
  next.splice(to, 0, moved);
  return next;
}
