// The welcome screen's list of what Sidekick will trace (issue 41 item 13): each destination
// with its address before anything is probed, and where the external ones are set.
import { Link } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { Claim } from '../../../server/contract/account';
import { hasClaim } from '../shell/gates';
import { currentUserAtom } from '../state/user';
import { usePlannedSources } from './usePlannedSources';

export function PlannedSources({ agentId }: { agentId: number | undefined }) {
  const { sources, failure } = usePlannedSources(agentId);
  const canSet = hasClaim(useAtomValue(currentUserAtom), Claim.SettingsManagement);
  if (failure) return <p className="hint">Could not read what Sidekick will trace: {failure}</p>;
  if (!sources) return null;
  return (
    <div className="sidekick-plan">
      <h3>Get Started traces these destinations</h3>
      <ul data-testid="sidekick-plan">
        {sources.map((s) => (
          <li key={s.Kind} data-kind={s.Kind}>
            <strong>{s.Label}</strong>: {s.Address ? <code className="sidekick-plan-address">{s.Address}</code> : <span className="hint">{s.Note}</span>}
          </li>
        ))}
      </ul>
      <p className="hint">
        The external sources are set in Settings &gt; General ("Sidekick external source 1" and "2"), for example to hosts of your own in a closed network
        {canSet ? (
          <>
            : <Link to="/settings">open Settings</Link>.
          </>
        ) : (
          '.'
        )}
      </p>
    </div>
  );
}
