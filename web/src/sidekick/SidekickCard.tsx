// One Sidekick target (spec 3 section 2.5): status indicator, DNS name, IP, description, the
// Details link (/sktargets/{targetId}), the Troubleshoot dropdown and the 150 px time graph.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { SidekickTarget } from '../../../server/contract/sidekick';
import { PopupMenu } from '../target/PopupMenu';
import { statusColour, statusText, targetStatus } from './logic/status';
import { SidekickTimeGraph } from './SidekickTimeGraph';
import { useRecentBuckets } from './useRecentBuckets';

export interface SidekickCardProps {
  target: SidekickTarget;
  warnMs: number;
  badMs: number;
  onTroubleshoot: (scope: 'this' | 'all') => void;
}

export function SidekickCard({ target, warnMs, badMs, onTroubleshoot }: SidekickCardProps) {
  const { points, loadedAt } = useRecentBuckets(target.WebTargetID);
  const status = target.WebTargetID ? targetStatus(points, loadedAt, warnMs, badMs) : -1;
  const [menu, setMenu] = useState<{ x: number; y: number } | null>(null);
  const d = target.ExportDetails;
  return (
    <article className="sidekick-card" data-kind={target.Kind} data-status={status} aria-label={target.Label}>
      <header>
        <span className="sidekick-status" style={{ background: statusColour(status) }} title={statusText(status)} aria-label={`Status: ${statusText(status)}`} />
        <h3>{target.Label}</h3>
      </header>
      <dl>
        <dt>DNS name</dt>
        <dd className="sidekick-dns">{d.DNSName || '-'}</dd>
        <dt>IP</dt>
        <dd className="sidekick-ip">{d.IP || '-'}</dd>
      </dl>
      <p className="sidekick-description">{target.Description}</p>
      {d.NotFoundReason && <p className="sidekick-not-found">{d.NotFoundReason}</p>}
      {target.WebTargetID && (
        <>
          <div className="sidekick-card-actions">
            <Link to={target.ContentLink}>Details</Link>
            <button
              type="button"
              className="button secondary"
              aria-haspopup="menu"
              onClick={(e) => {
                const r = e.currentTarget.getBoundingClientRect();
                setMenu({ x: r.left, y: r.bottom + 2 });
              }}
            >
              Troubleshoot ▾
            </button>
          </div>
          <SidekickTimeGraph points={points} label={target.Label} endMs={loadedAt} />
        </>
      )}
      {menu && (
        <PopupMenu
          x={menu.x}
          y={menu.y}
          onClose={() => setMenu(null)}
          items={[
            { label: 'This Target', onSelect: () => onTroubleshoot('this') },
            { label: 'All Targets', onSelect: () => onTroubleshoot('all') },
          ]}
        />
      )}
    </article>
  );
}
