// Target entry (spec 2 "Control panel"): a combo box "Enter target name or IP" with the trace
// history (key TraceTargetHistory). Enter starts a trace. The history filters on the text;
// each entry can be started now or removed; with an empty filter the list ends with "Sort
// list", "Reset list to default" and, with the user-management claim, "Set as account
// default..." (after a confirmation).
import { useCallback, useEffect, useRef, useState } from 'react';
import { getDefaultTraceHistory, getTraceHistory, setTraceHistory } from './api';
import { HistoryDropdownPopupHeightPx } from './logic/constants';
import { reportError } from '../state/reportError';
import { showInfo } from '../state/toasts';
import { useClickAway } from '../components/useClickAway';
import { useEscape } from '../components/useEscape';

export const EntryPlaceholder = 'Enter target name or IP';
/** Said under the entry when Enter finds it empty (issue 15: it silently did nothing). */
export const EmptyEntryHint = 'Type a host name or IP address, then press Enter to start tracing it.';

export function TargetEntry({
  text,
  onText,
  onStart,
  disabled,
  disabledTitle,
  canSetAccountDefault,
}: {
  text: string;
  onText: (t: string) => void;
  /** Start tracing the given target now. */
  onStart: (target: string) => void;
  disabled: boolean;
  disabledTitle?: string;
  canSetAccountDefault: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [history, setHistory] = useState<string[] | null>(null);
  const [filtering, setFiltering] = useState(false);
  const [hint, setHint] = useState(false);
  const box = useRef<HTMLDivElement>(null);

  const load = () =>
    getTraceHistory()
      .then(setHistory)
      .catch((e) => reportError(e));
  useEffect(() => {
    if (open && history === null) load();
  }, [open, history]);
  const close = useCallback(() => setOpen(false), []);
  useClickAway(box, open, close);
  useEscape(open, close);

  const save = (list: string[]) => {
    setHistory(list);
    setTraceHistory(list).catch((e) => reportError(e));
  };
  const filter = filtering ? text.trim().toLowerCase() : '';
  const shown = (history ?? []).filter((h) => h.toLowerCase().includes(filter));
  const start = (t: string) => {
    setOpen(false);
    // The server moves a started target to the front of the history: read it again next time.
    setHistory(null);
    if (t.trim()) onStart(t.trim());
  };

  return (
    <div className="target-entry" ref={box} title={disabled ? disabledTitle : undefined}>
      <input
        aria-label="Target"
        placeholder={EntryPlaceholder}
        value={text}
        disabled={disabled}
        onChange={(e) => {
          onText(e.target.value);
          setHint(false);
          setFiltering(true);
          setOpen(true);
        }}
        onFocus={() => setFiltering(false)}
        onBlur={() => setHint(false)}
        aria-describedby={hint ? 'target-entry-hint' : undefined}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !text.trim()) {
            setOpen(false);
            setHint(true);
          } else if (e.key === 'Enter') start(text);
          if (e.key === 'Escape') setOpen(false);
          if (e.key === 'ArrowDown') setOpen(true);
        }}
      />
      <button
        type="button"
        className="entry-toggle"
        aria-label="Trace history"
        disabled={disabled}
        onClick={() => {
          setFiltering(false);
          setOpen(!open);
        }}
      >
        ▾
      </button>
      {hint && (
        <div id="target-entry-hint" className="entry-hint" role="alert">
          {EmptyEntryHint}
        </div>
      )}
      {open && (
        <div className="history-list" style={{ maxHeight: HistoryDropdownPopupHeightPx }} role="listbox">
          {history === null && <div className="history-note">Loading…</div>}
          {history !== null && shown.length === 0 && <div className="history-note">No history matches filter</div>}
          {shown.map((h) => (
            <div key={h} className="history-item" role="option" aria-selected={false}>
              <button type="button" className="history-name" onClick={() => (onText(h), setOpen(false))}>
                {h}
              </button>
              <button type="button" className="history-icon" title={`Start tracing ${h} now`} aria-label={`Start tracing ${h} now`} onClick={() => (onText(h), start(h))}>
                ▶
              </button>
              <button type="button" className="history-icon" title={`Remove ${h} from the list`} aria-label={`Remove ${h}`} onClick={() => save((history ?? []).filter((x) => x !== h))}>
                ✕
              </button>
            </div>
          ))}
          {history !== null && filter === '' && (
            <div className="history-commands">
              <button type="button" onClick={() => save([...(history ?? [])].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' })))}>
                Sort list
              </button>
              <button
                type="button"
                onClick={() =>
                  getDefaultTraceHistory()
                    .then((list) => save(list ?? []))
                    .catch((e) => reportError(e))
                }
              >
                Reset list to default
              </button>
              {canSetAccountDefault && (
                <button
                  type="button"
                  onClick={() => {
                    if (!window.confirm('Make this list the default trace history for every user of the account?')) return;
                    setTraceHistory(history ?? [], 'Account')
                      .then(() => showInfo('Changes saved'))
                      .catch((e) => reportError(e));
                  }}
                >
                  Set as account default...
                </button>
              )}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
