// One setting's editor, chosen by its trait (spec 2 section 5 "Settings editors"): checkbox for
// Bool, choices for Items, TCP port with presets (ignored unless numeric), inter-hop delay
// presets with a custom value, graph scale options with a custom ms value (default 250),
// packet type (sets the packet size), network interface, time spans, and numeric inputs that
// revert to their previous value when the entry is not a number. Text inputs are MaxChars x 10 px.
import { useEffect, useState } from 'react';
import { NodeValueType, type NetworkInterfaceInfo, type PacketTypeInfo, type SettingValue, type Trait } from '../../../server/contract/settings';
import { DefaultCustomScaleMs, inputWidthPx, packetTypeOf, parsePort, scaleChoice } from './logic/engineRules';
import { formatTimeSpan, numericOrPrevious, parseTimeSpan } from './logic/timeSpan';

export interface EditorProps {
  trait: Trait;
  value: SettingValue;
  changed: boolean;
  onChange: (value: SettingValue) => void;
  packetTypes: readonly PacketTypeInfo[];
  interfaces: readonly NetworkInterfaceInfo[];
}

const isNumeric = (t: Trait) => t.Type >= NodeValueType.Int16 && t.Type <= NodeValueType.Decimal;
const idOf = (t: Trait) => `setting-${t.Setting.replace(/\./g, '-')}`;

/** A text input committed on blur or Enter; `commit` answers the value to keep (or null to revert). */
function CommitInput({ id, text, width, onCommit, label }: { id: string; text: string; width?: number; onCommit: (t: string) => string | null; label: string }) {
  const [draft, setDraft] = useState(text);
  useEffect(() => setDraft(text), [text]);
  const commit = () => setDraft(onCommit(draft) ?? text);
  return (
    <input
      id={id}
      aria-label={label}
      className="setting-input"
      style={width ? { width } : undefined}
      value={draft}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => e.key === 'Enter' && commit()}
    />
  );
}

function NumberInput({ trait, value, onChange, integer }: { trait: Trait; value: number; onChange: (v: number) => void; integer?: boolean }) {
  return (
    <CommitInput
      id={idOf(trait)}
      label={trait.Label}
      text={String(value)}
      width={inputWidthPx(trait.Attributes.MaxChars)}
      onCommit={(t) => {
        const n = numericOrPrevious(t, value);
        const kept = integer && !Number.isInteger(n) ? value : n;
        if (kept !== value) onChange(kept);
        return String(kept);
      }}
    />
  );
}

function Presets({ trait, value, onChange, customDefault }: { trait: Trait; value: number; onChange: (v: number) => void; customDefault: number }) {
  const preset = trait.Attributes.Items.find((i) => i.Value === value);
  return (
    <span className="setting-presets">
      <select aria-label={`${trait.Label} preset`} value={preset ? String(preset.Value) : 'custom'} onChange={(e) => onChange(e.target.value === 'custom' ? customDefault : Number(e.target.value))}>
        {trait.Attributes.Items.map((i) => (
          <option key={String(i.Value)} value={String(i.Value)}>
            {i.Label}
          </option>
        ))}
        <option value="custom">Custom…</option>
      </select>
      {!preset && <NumberInput trait={trait} value={value} onChange={onChange} integer />}
    </span>
  );
}

function GraphScale({ trait, value, onChange }: { trait: Trait; value: number; onChange: (v: number) => void }) {
  const choice = scaleChoice(value);
  return (
    <span className="setting-presets">
      <select
        id={idOf(trait)}
        aria-label={trait.Label}
        value={choice}
        onChange={(e) => onChange({ auto: 0, follow: -2, fixed100: 100, custom: DefaultCustomScaleMs }[e.target.value as 'auto'])}
      >
        <option value="auto">Automatic</option>
        <option value="follow">Follow the target graph scale</option>
        <option value="fixed100">100 ms</option>
        <option value="custom">Custom (ms)</option>
      </select>
      {choice === 'custom' && <NumberInput trait={{ ...trait, Label: `${trait.Label} (custom ms)` }} value={value} onChange={(v) => onChange(v > 0 ? v : value)} />}
    </span>
  );
}

export function SettingEditor(p: EditorProps) {
  const { trait, value, onChange } = p;
  const editor = trait.Attributes.ID;
  let control: JSX.Element;
  if (trait.Type === NodeValueType.Bool) {
    control = <input id={idOf(trait)} type="checkbox" aria-label={trait.Label} checked={value === true} onChange={(e) => onChange(e.target.checked)} />;
  } else if (editor === 'packetType') {
    const known = packetTypeOf(p.packetTypes, String(value));
    control =
      typeof known === 'string' && p.packetTypes.length ? (
        <span className="setting-error">{known}</span>
      ) : (
        <select id={idOf(trait)} aria-label={trait.Label} value={String(value)} onChange={(e) => onChange(e.target.value)}>
          {p.packetTypes.map((t) => (
            <option key={t.ID} value={t.Name}>
              {t.Name}
            </option>
          ))}
        </select>
      );
  } else if (editor === 'password') {
    // The server sends a stored password back only as a mask; a new entry replaces it.
    control = (
      <input
        id={idOf(trait)}
        type="password"
        autoComplete="new-password"
        aria-label={trait.Label}
        className="setting-input"
        style={{ width: inputWidthPx(trait.Attributes.MaxChars) }}
        value={String(value ?? '')}
        onFocus={(e) => e.target.select()}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  } else if (editor === 'networkInterface') {
    const known = p.interfaces.some((i) => i.ID === value);
    control = (
      <select id={idOf(trait)} aria-label={trait.Label} value={String(value ?? '')} onChange={(e) => onChange(e.target.value)}>
        {!known && <option value={String(value ?? '')}>{String(value)} (not on this machine)</option>}
        {p.interfaces.map((i) => (
          <option key={i.ID} value={i.ID}>
            {i.Name}
          </option>
        ))}
      </select>
    );
  } else if (editor === 'tcpPort') {
    const listId = `${idOf(trait)}-presets`;
    control = (
      <span className="setting-presets">
        <CommitInput
          id={idOf(trait)}
          label={trait.Label}
          text={String(value)}
          width={inputWidthPx(trait.Attributes.MaxChars)}
          onCommit={(t) => {
            // Free-form with presets; ignored unless numeric (1-65535).
            const port = parsePort(t);
            if (port === null) return null;
            if (port !== value) onChange(port);
            return String(port);
          }}
        />
        <select aria-label="TCP port preset" value="" onChange={(e) => e.target.value && onChange(Number(e.target.value))} id={listId}>
          <option value="">Presets…</option>
          {trait.Attributes.Items.map((i) => (
            <option key={String(i.Value)} value={String(i.Value)}>
              {i.Label}
            </option>
          ))}
        </select>
      </span>
    );
  } else if (editor === 'interHopDelay') {
    control = <Presets trait={trait} value={Number(value)} onChange={onChange} customDefault={10} />;
  } else if (editor === 'graphScale') {
    control = <GraphScale trait={trait} value={Number(value)} onChange={onChange} />;
  } else if (trait.Attributes.Items.length) {
    control = (
      <select id={idOf(trait)} aria-label={trait.Label} value={String(value)} onChange={(e) => onChange(typeof value === 'number' ? Number(e.target.value) : e.target.value)}>
        {trait.Attributes.Items.map((i) => (
          <option key={String(i.Value)} value={String(i.Value)}>
            {i.Label}
          </option>
        ))}
      </select>
    );
  } else if (trait.Type === NodeValueType.Timespan) {
    control = (
      <CommitInput
        id={idOf(trait)}
        label={trait.Label}
        text={formatTimeSpan(Number(value))}
        width={inputWidthPx(trait.Attributes.MaxChars)}
        onCommit={(t) => {
          const s = parseTimeSpan(t);
          if (s === null) return null;
          onChange(s);
          return formatTimeSpan(s);
        }}
      />
    );
  } else if (isNumeric(trait)) {
    const integer = trait.Type !== NodeValueType.Double && trait.Type !== NodeValueType.Float && trait.Type !== NodeValueType.Decimal;
    control = <NumberInput trait={trait} value={Number(value)} onChange={onChange} integer={integer} />;
  } else {
    control = (
      <input
        id={idOf(trait)}
        aria-label={trait.Label}
        className="setting-input"
        style={{ width: inputWidthPx(trait.Attributes.MaxChars) }}
        value={String(value ?? '')}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  }
  return (
    <div className={`setting-row${p.changed ? ' changed' : ''}`} data-setting={trait.Setting}>
      <label htmlFor={idOf(trait)} className="setting-label">
        {trait.Label}
      </label>
      <div className="setting-control">
        {control}
        {trait.Hint && <div className="setting-hint">{trait.Hint}</div>}
        {trait.Attributes.OverriddenBy && (
          <div className="setting-override" role="note">
            {trait.Attributes.OverriddenBy}
          </div>
        )}
      </div>
    </div>
  );
}
