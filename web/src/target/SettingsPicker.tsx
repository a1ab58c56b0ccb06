// The control panel's "Settings" (configuration) picker (spec 2 section 2): the parent shows
// it only when more than one configuration exists; disabled without TargetManagement.
import type { SettingsListItem } from './api';

export function SettingsPicker({ items, configId, onChoose, disabled, title }: { items: readonly SettingsListItem[]; configId: number | null; onChoose: (id: number) => void; disabled: boolean; title?: string }) {
  return (
    <div className="choice-field" title={title}>
      <label htmlFor="settings-picker">Settings</label>
      <select id="settings-picker" aria-label="Settings" value={configId ?? ''} disabled={disabled} onChange={(e) => onChoose(Number(e.target.value))}>
        {configId === null && <option value="" />}
        {items.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
    </div>
  );
}
