// The control panel's Agent picker (rules in logic/agentPicker): a filterable list of agents,
// offline ones in red. The parent shows it only on multi-agent deployments.
import { useEffect, useRef, useState } from 'react';
import { AgentPickerMinWidthPx, agentTextStyle, filterAgents, type AgentItem } from './logic/agentPicker';
import { useClickAway } from '../components/useClickAway';

export function AgentPicker({ agents, chosen, onChoose, disabled, title }: { agents: readonly AgentItem[]; chosen: AgentItem | null; onChoose: (id: number) => void; disabled: boolean; title?: string }) {
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState('');
  const box = useRef<HTMLDivElement>(null);
  useClickAway(box, open, () => setOpen(false));
  useEffect(() => {
    if (disabled) setOpen(false);
  }, [disabled]);
  const shown = filterAgents(agents, filter);
  return (
    <div className="choice-field agent-picker" ref={box} title={title}>
      <label>Agent</label>
      <div className="choice-box">
        <button
          type="button"
          className="button secondary"
          aria-label="Agent"
          aria-haspopup="listbox"
          disabled={disabled}
          style={{ minWidth: AgentPickerMinWidthPx, textAlign: 'left', ...(chosen ? agentTextStyle(chosen) : {}) }}
          onClick={() => (setFilter(''), setOpen(!open))}
        >
          {chosen?.Name ?? ''} ▾
        </button>
        {open && (
          <div className="choice-list" role="listbox" style={{ minWidth: AgentPickerMinWidthPx }}>
            <input aria-label="Filter agents" placeholder="Filter" value={filter} autoFocus onChange={(e) => setFilter(e.target.value)} />
            {shown.map((a) => (
              <button
                key={a.ID}
                type="button"
                role="option"
                aria-selected={a.ID === chosen?.ID}
                title={a.IsOnline ? undefined : `${a.Name} is offline`}
                style={agentTextStyle(a)}
                onClick={() => (onChoose(a.ID), setOpen(false))}
              >
                {a.Name}
              </button>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}
