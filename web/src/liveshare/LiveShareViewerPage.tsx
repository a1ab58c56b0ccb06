// /LiveShare/{shareId}/{password} (spec 3 section 2.6): the browser is signed in as a visitor
// by the liveshareid cookie main.tsx stored from this path. A visitor sees the first (only)
// summary its link shares, or the pseudo-summary of an agent's targets, live; a signed-in user
// who opens a link is told how to see it as a visitor instead of being signed out.
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { useSummary } from '../summary/useSummary';
import { SummaryWindow } from '../summary/SummaryWindow';
import { useDocumentTitle } from '../shell/documentTitle';
import { LoadingPane } from '../shell/LoadingPane';
import { currentUserAtom } from '../state/user';
import '../target/target.css';

export function LiveShareViewerPage() {
  const user = useAtomValue(currentUserAtom);
  if (!user?.IsLiveshare) return <SignedInNotice username={user?.Username ?? ''} />;
  return <SharedSummary />;
}

function SharedSummary() {
  const { list } = useSummary(undefined);
  const first = list[0];
  if (!first) return <LoadingPane />;
  return <SummaryWindow key={first.UniqueID} summaryId={first.UniqueID} />;
}

function SignedInNotice({ username }: { username: string }) {
  useDocumentTitle('LiveShare');
  return (
    <section className="page notice-page liveshare-notice">
      <h1>This is a LiveShare link</h1>
      <p>
        You are signed in as {username}, so this browser shows your own view. Visitors who open this link see the shared targets read-only,
        without signing in.
      </p>
      <p>
        <Link to="/" className="button primary">Back to your targets</Link>
      </p>
    </section>
  );
}
