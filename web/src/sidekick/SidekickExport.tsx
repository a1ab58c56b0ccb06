// The "Sidekick export" view (spec 3 section 2.5): public LiveShare links of the Sidekick's
// targets with a boilerplate message, and Back To Sidekick. Export toggles it.
import { useEffect, useState } from 'react';
import type { SidekickShareUrl } from '../../../server/contract/sidekick';
import { reportError } from '../state/reportError';
import { shareUrlsForSidekickTargets } from './api';
import { DiscoveryErrorPrefix } from './logic/statusError';

export function SidekickExport({ onBack }: { onBack: () => void }) {
  const [urls, setUrls] = useState<SidekickShareUrl[] | null>(null);
  useEffect(() => {
    let alive = true;
    shareUrlsForSidekickTargets().then(
      (list) => alive && setUrls(list ?? []),
      (e) => {
        if (alive) setUrls([]);
        reportError(e, { prefix: DiscoveryErrorPrefix });
      },
    );
    return () => {
      alive = false;
    };
  }, []);
  return (
    <section className="sidekick-export" aria-label="Sidekick export">
      <h2>Sidekick export</h2>
      <p>
        Send these links to your internet provider, your IT team or anyone helping you. Each opens a read-only, live view of what Sidekick measured,
        without signing in. Anyone with a link can view it until you turn the link off on the LiveShare Links page.
      </p>
      {urls === null ? (
        <p>Making the links...</p>
      ) : urls.length === 0 ? (
        <p>No traced targets to share yet.</p>
      ) : (
        <ul className="sidekick-share-links">
          {urls.map((u) => (
            <li key={u.TargetDefinition.WebTargetID}>
              <span className="sidekick-share-label">{u.TargetDefinition.Label}</span>{' '}
              <span className="sidekick-share-target">({u.TargetDefinition.ExportDetails.DNSName || u.TargetDefinition.ExportDetails.IP})</span>
              <br />
              <a href={u.ShareUrl} target="_blank" rel="noreferrer noopener">
                {u.ShareUrl}
              </a>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="button" onClick={onBack}>
        Back To Sidekick
      </button>
    </section>
  );
}
