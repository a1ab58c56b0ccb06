// /sktargets/{targetId} (spec 3 section 2.1): a Sidekick target in the full target window,
// with 'Return to sidekick' back to /sidekick.
import { Link, useParams } from 'react-router-dom';
import { sessionIdOf } from '../target/logic/rowId';
import { TargetWindow } from '../target/TargetWindow';
import '../target/target.css';
import './sidekick.css';

export function SidekickTargetPage() {
  const { targetId } = useParams();
  const id = targetId ? sessionIdOf(targetId) : undefined;
  return (
    <div className="sidekick-target-page">
      <Link className="sidekick-return" to="/sidekick">
        Return to sidekick
      </Link>
      <TargetWindow key={id ?? 'new'} targetId={id} />
    </div>
  );
}
