// A small popup menu at a screen position (context menus, split-button dropdowns, choosers).
// Closes on an outside click, Escape, scroll of the page, or after an item is chosen.
import { useEffect, useRef, type ReactNode } from 'react';
import { useClickAway } from '../components/useClickAway';

export interface MenuItem {
  label: string;
  onSelect?: () => void;
  disabled?: boolean;
  /** Tooltip, e.g. why an item is disabled. */
  title?: string;
  checked?: boolean;
  /** A line above this item. */
  separator?: boolean;
  /** Keeps the menu open after the choice (check lists). */
  keepOpen?: boolean;
}

export function PopupMenu({ x, y, items, onClose, header }: { x: number; y: number; items: MenuItem[]; onClose: () => void; header?: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useClickAway(ref, true, onClose, true);
  useEffect(() => {
    const key = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', key);
    return () => window.removeEventListener('keydown', key);
  }, [onClose]);
  // Keep the menu on screen.
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const r = el.getBoundingClientRect();
    if (r.right > window.innerWidth) el.style.left = `${Math.max(4, window.innerWidth - r.width - 4)}px`;
    if (r.bottom > window.innerHeight) el.style.top = `${Math.max(4, window.innerHeight - r.height - 4)}px`;
  }, [x, y]);
  return (
    <div ref={ref} className="popup-menu" role="menu" style={{ left: x, top: y }} onContextMenu={(e) => e.preventDefault()}>
      {header}
      {items.map((item, i) => (
        <button
          key={`${i}-${item.label}`}
          type="button"
          role={item.checked === undefined ? 'menuitem' : 'menuitemcheckbox'}
          aria-checked={item.checked}
          className={`popup-item${item.separator ? ' separated' : ''}`}
          disabled={item.disabled}
          title={item.title}
          onClick={() => {
            item.onSelect?.();
            if (!item.keepOpen) onClose();
          }}
        >
          {item.checked !== undefined && <span className="popup-check">{item.checked ? '✓' : ''}</span>}
          {item.label}
        </button>
      ))}
    </div>
  );
}
