// A form's fields as one JSON object, the way the finishing call takes them: each named
// field once, checkboxes of one name as a list of the checked values, unchecked ones absent.
export interface FieldLike {
  name: string;
  type?: string;
  value: string;
  checked?: boolean;
  /** Disabled fields (those of a kind not chosen) are not sent. */
  disabled?: boolean;
}

export function serializeFields(fields: readonly FieldLike[]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const f of fields) {
    if (!f.name || f.disabled) continue;
    if (f.type === 'checkbox') {
      const list = (out[f.name] as string[] | undefined) ?? [];
      if (f.checked) list.push(f.value);
      out[f.name] = list;
    } else if (f.type === 'radio') {
      if (f.checked) out[f.name] = f.value;
    } else if (f.type !== 'submit' && f.type !== 'button') out[f.name] = f.value;
  }
  return out;
}

/** The target id and hop of the first selected row ("7_h_3" -> 7 and 3; "7" -> 7 and 0). */
export function sessionAndHost(selection: readonly string[]): { SessionID?: number; HostID?: number } {
  const m = /^(\d+)(?:_h_(\d+))?$/.exec(selection[0] ?? '');
  return m ? { SessionID: Number(m[1]), HostID: Number(m[2] ?? 0) } : {};
}

export const SidebarWidth = { initial: 350, min: 10, max: 650 } as const;
export const clampWidth = (w: number) => Math.min(SidebarWidth.max, Math.max(SidebarWidth.min, Math.round(w)));
