// The target window's Download button (pp2import flag): a menu of the data file and the CSV
// and JSON reports (logic/downloadMenu), with a note when a range reaches back before the raw
// samples the server keeps.
import { useRef, useState } from 'react';
import { downloadUrl } from '../api/download';
import { downloadItems, retentionNote } from './logic/downloadMenu';
import type { TimeRange } from './logic/graphTimeState';
import { PopupMenu } from './PopupMenu';
import { useRawRetention } from './useRawRetention';

export function DownloadButton({ targetId, target, view, focus, firstSampleMs }: { targetId: string; target: string; view: TimeRange; focus: TimeRange; firstSampleMs: number | null }) {
  const [menu, setMenu] = useState<{ x: number; y: number } | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const { retention, load } = useRawRetention();
  const note = retention && retentionNote(retention.RetentionRawDays, Date.parse(retention.RawKeptSince), firstSampleMs, view);
  const items = downloadItems(targetId, target, view, focus).map((item) => ({ label: item.label, onSelect: () => downloadUrl(item.url, item.fileName) }));
  return (
    <>
      <button
        ref={button}
        type="button"
        className="button secondary"
        aria-haspopup="menu"
        onClick={() => {
          load();
          const r = button.current!.getBoundingClientRect();
          setMenu({ x: r.left, y: r.bottom + 4 });
        }}
      >
        Download ▾
      </button>
      {menu && (
        <PopupMenu
          x={menu.x}
          y={menu.y}
          items={items}
          onClose={() => setMenu(null)}
          header={note ? <div className="menu-note" data-testid="retention-note">{note}</div> : undefined}
        />
      )}
    </>
  );
}
