// A labelled input with an optional message under it.
import type { InputHTMLAttributes, Ref } from 'react';

type Props = InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string; inputRef?: Ref<HTMLInputElement> };

export function Field({ label, error, inputRef, id, className, ...input }: Props) {
  const fieldId = id ?? `field-${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={fieldId}>{label}</label>
      <input id={fieldId} ref={inputRef} aria-invalid={error ? true : undefined} {...input} />
      {error && <div className="field-error" role="alert">{error}</div>}
    </div>
  );
}
