// /settings (SettingsManagement; spec 2 section 2 "Settings editor"): the left tree (General,
// each named configuration with Display and Engine, the trailing "New named config"; drag a
// configuration to reorder), the right pane with the selected entry's header and editors, and
// Clone Configuration, Delete Configuration, Cancel, Save and "{n} changes pending".
import { useAtomValue } from 'jotai';
import { useMemo, useState } from 'react';
import type { SettingValue, Trait } from '../../../server/contract/settings';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useDocumentTitle } from '../shell/documentTitle';
import { showInfo } from '../state/toasts';
import { engineTypeWarning, fieldsUnusedBy, packetSizeFor, TypeSpecificFields, typeFields, udpRangeProblem } from './logic/engineRules';
import { ClientList, currentValue, nodeAt, savedOrder, ServerList, valueAt } from './logic/pending';
import { canClone, canDelete, entryId, moveConfig, neighbourAfterDelete, sameEntry, treeEntries, type EntryKey } from './logic/settingsTree';
import { isSelfHostedAtom } from '../state/user';
import { StorageUsePanel } from './general/StorageUsePanel';
import { OnboardingPanel } from './general/OnboardingPanel';
import { SettingEditor } from './SettingEditor';
import { useEngineData } from './useEngineData';
import { useScreen } from './useScreen';
import { useSettingsEditor } from './useSettingsEditor';
import { pendingChangesText } from './logic/counts';
import './settings.css';

const screenOf = (k: EntryKey): string | null => (k.kind === 'New' ? null : k.kind);

export function SettingsPage() {
  useDocumentTitle('Settings');
  const ed = useSettingsEditor();
  const [selected, setSelected] = useState<EntryKey>({ kind: 'General' });
  const [dragged, setDragged] = useState<number | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<number | null>(null);
  const root = ed.settings?.Root;
  const configId = 'configId' in selected ? selected.configId : undefined;
  const { screen, error: screenError } = useScreen(screenOf(selected), configId, ed.settings?.Version ?? 0);
  const engine = useEngineData(selected.kind === 'Engine');
  // Disk use is the appliance's (like the retention days beside it): not shown to cloud tenants.
  const selfHosted = useAtomValue(isSelfHostedAtom);

  const order = useMemo(() => (root ? (ed.pending.order ?? savedOrder(root)) : []), [root, ed.pending.order]);
  const configs = root
    ? order.filter((id) => nodeAt(root, `${ClientList}.${id}`)).map((id) => ({ id, name: String(currentValue(root, ed.pending, `${ClientList}.${id}.Name`)) }))
    : [];
  const entries = treeEntries(configs);
  const clientCount = root ? (nodeAt(root, ClientList)?.Children.length ?? 0) : 0;
  const serverCount = root ? (nodeAt(root, ServerList)?.Children.length ?? 0) : 0;

  if (ed.status.kind === 'loading' || !root) {
    return <section className="page settings-page">{ed.status.kind === 'failed' ? <p className="error-text">Error: {ed.status.message}</p> : <p className="hint">Loading settings…</p>}</section>;
  }

  const choose = async (k: EntryKey) => {
    if (k.kind !== 'New') return setSelected(k);
    const r = await ed.createNew();
    if (r?.NewConfigId !== undefined) setSelected({ kind: 'NamedConfig', configId: r.NewConfigId });
  };
  const clone = async () => {
    if (configId === undefined) return;
    const r = await ed.clone(configId);
    if (r?.NewConfigId !== undefined) setSelected({ kind: 'NamedConfig', configId: r.NewConfigId });
  };
  const remove = async (id: number) => {
    setConfirmDelete(null);
    const next = neighbourAfterDelete(order, id);
    if (await ed.remove(id)) setSelected(next);
  };
  const save = async () => {
    if (await ed.save()) showInfo('Changes saved');
  };

  const value = (t: Trait): SettingValue => currentValue(root, ed.pending, t.Setting);
  const change = (t: Trait, v: SettingValue) => {
    ed.setValue(t.Setting, v);
    // Choosing a packet type sets the packet size: 40 for TCP types, 56 otherwise.
    if (t.Attributes.ID === 'packetType' && typeof v === 'string') ed.setValue(t.Setting.replace(/PacketType$/, 'PacketSize'), packetSizeFor(v));
  };

  let traits = screen?.traits ?? [];
  let warning: string | null = null;
  let problem: string | undefined;
  if (selected.kind === 'Engine' && configId !== undefined && screen) {
    const base = `${ServerList}.${configId}`;
    const saved = String(valueAt(root, `${base}.PacketType`));
    const chosen = String(currentValue(root, ed.pending, `${base}.PacketType`));
    const own = chosen === saved ? typeFields(saved) : [];
    const unused = fieldsUnusedBy(chosen === saved ? saved : '');
    traits = traits.filter((t) => (!TypeSpecificFields.includes(t.Name) || own.includes(t.Name)) && !unused.includes(t.Name));
    if (engineTypeWarning(chosen, saved)) warning = traits.find((t) => t.Name === 'PacketType')?.Content ?? null;
    if (own.includes('UdpBeginPort')) problem = udpRangeProblem(Number(currentValue(root, ed.pending, `${base}.UdpBeginPort`)), Number(currentValue(root, ed.pending, `${base}.UdpEndPort`)));
  }

  return (
    <section className="page settings-page">
      <header className="page-header">
        <h1>Settings</h1>
        <div className="settings-actions">
          <span className="settings-pending" data-testid="settings-pending">
            {pendingChangesText(ed.count)}
          </span>
          {canClone(selected) && (
            <button type="button" className="button secondary" disabled={ed.busy} onClick={clone}>
              Clone Configuration
            </button>
          )}
          {configId !== undefined && canDelete(selected, clientCount, serverCount) && (
            <button type="button" className="button secondary" disabled={ed.busy} onClick={() => setConfirmDelete(configId)}>
              Delete Configuration
            </button>
          )}
          {ed.count > 0 && (
            <button type="button" className="button secondary" onClick={ed.cancel}>
              Cancel
            </button>
          )}
          <button type="button" className="button primary" disabled={ed.busy || ed.count === 0 || problem !== undefined} onClick={save}>
            Save
          </button>
        </div>
      </header>
      {ed.saveError && (
        <p className="error-text settings-save-error" role="alert">
          {ed.saveError}
        </p>
      )}
      <div className="settings-body">
        <nav className="settings-tree" aria-label="Settings tree">
          {entries.map((e) => {
            const isConfig = e.key.kind === 'NamedConfig';
            const id = 'configId' in e.key ? e.key.configId : undefined;
            return (
              <button
                key={entryId(e.key)}
                type="button"
                className={`settings-entry depth-${e.depth}${sameEntry(e.key, selected) ? ' selected' : ''}${e.key.kind === 'New' ? ' new-entry' : ''}`}
                draggable={isConfig}
                onDragStart={() => id !== undefined && setDragged(id)}
                onDragOver={(ev) => isConfig && dragged !== null && ev.preventDefault()}
                onDrop={() => {
                  if (dragged !== null && id !== undefined) ed.setOrder(moveConfig(order, dragged, id));
                  setDragged(null);
                }}
                onClick={() => choose(e.key)}
              >
                {e.label}
              </button>
            );
          })}
        </nav>
        <div className="settings-pane">
          {screenError && <p className="error-text">Error: {screenError}</p>}
          {/* Escaped by the server (server/settings/screens.ts): names and descriptions are text there. */}
          {screen && <div className="settings-screen-head" dangerouslySetInnerHTML={{ __html: screen.html }} />}
          {warning && <p className="settings-warning">{warning}</p>}
          {problem && <p className="error-text">{problem}</p>}
          {screen &&
            traits.map((t) => (
              <SettingEditor
                key={t.Setting}
                trait={t}
                value={value(t)}
                changed={t.Setting in ed.pending.values}
                onChange={(v) => change(t, v)}
                packetTypes={engine.packetTypes}
                interfaces={engine.interfaces}
              />
            ))}
          {screen && selected.kind === 'General' && selfHosted && <StorageUsePanel />}
          {/* Reset Onboarding only in cloud mode (spec 1 section 6). */}
          {screen && selected.kind === 'General' && !selfHosted && <OnboardingPanel />}
        </div>
      </div>
      {confirmDelete !== null && (
        <ConfirmDialog
          confirmation={{
            title: 'Delete Configuration',
            message: `Delete ${configs.find((c) => c.id === confirmDelete)?.name ?? 'this configuration'}? Targets using it move to the neighbouring configuration.`,
            confirmLabel: 'Delete',
          }}
          onConfirm={() => remove(confirmDelete)}
          onCancel={() => setConfirmDelete(null)}
        />
      )}
    </section>
  );
}
