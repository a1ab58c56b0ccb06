// A picker with preset choices and free text (Trace Interval, Focus): typing and Enter or
// leaving the field commits the text; the list offers the presets. The parent decides what
// the text means and whether it is accepted (an unreadable text reverts).
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useClickAway } from '../components/useClickAway';
import { useEscape } from '../components/useEscape';

export function ChoiceField({
  label,
  value,
  choices,
  onCommit,
  disabled,
  title,
  width,
}: {
  label: string;
  /** Text shown for the current value. */
  value: string;
  choices: readonly string[];
  /** Returns false when the text is not accepted (the field shows the value again). */
  onCommit: (text: string) => boolean;
  disabled?: boolean;
  title?: string;
  /** Field width in px; the stylesheet's (92 px, narrower on small screens) by default. */
  width?: number;
}) {
  const id = useId();
  const [text, setText] = useState(value);
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => setText(value), [value]);
  // The list closes on Escape and on a click elsewhere, wherever the focus is.
  const close = useCallback(() => setOpen(false), []);
  useEscape(open, close);
  useClickAway(box, open, close);
  const commit = (t: string) => {
    setOpen(false);
    if (t.trim() === value) return setText(value);
    if (!onCommit(t.trim())) setText(value);
  };
  return (
    <div className="choice-field" title={title}>
      <label htmlFor={id}>{label}</label>
      <div className="choice-box" ref={box}>
        <input
          id={id}
          value={text}
          disabled={disabled}
          style={width === undefined ? undefined : { width }}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit(text);
            if (e.key === 'Escape') {
              setText(value);
              setOpen(false);
            }
          }}
          onBlur={() => commit(text)}
        />
        <button type="button" className="choice-toggle" aria-label={`${label} choices`} disabled={disabled} onMouseDown={(e) => e.preventDefault()} onClick={() => setOpen(!open)}>
          ▾
        </button>
        {open && (
          <div className="choice-list" role="listbox">
            {choices.map((c) => (
              <button key={c} type="button" role="option" aria-selected={c === value} onMouseDown={(e) => e.preventDefault()} onClick={() => commit(c)}>
                {c}
              </button>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}
