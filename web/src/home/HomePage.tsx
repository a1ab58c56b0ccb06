// "/" (spec 1): the Sidekick screen under the Sidekick licence, otherwise the main target and
// summary container: All Targets (IsAllTargets: every running and paused target of the
// account) with the target entry above it. Summaries need the Professional licence; without
// it the container is the target window (the last opened target, or the new-target entry).
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { LicenseMode } from '../../../server/contract/account';
import { errorMessage } from '../api/errors';
import { getSummaries } from '../api/summaries';
import { SidekickPage } from '../sidekick/SidekickPage';
import { LoadingPane } from '../shell/LoadingPane';
import { useDocumentTitle } from '../shell/documentTitle';
import { currentUserAtom } from '../state/user';
import { SummaryWindow } from '../summary/SummaryWindow';
import { openTarget } from '../target/openTarget';
import { TargetWindow } from '../target/TargetWindow';
import '../target/target.css';

function AllTargetsHome() {
  const [id, setId] = useState<string | null>(null);
  const [error, setError] = useState<string>();
  useEffect(() => {
    getSummaries().then(
      (list) => setId((list ?? []).find((s) => s.IsAllTargets)?.UniqueID ?? null),
      (e) => setError(errorMessage(e)),
    );
  }, []);
  if (error) return <div className="target-empty error">Error loading data: {error}</div>;
  if (!id) return <LoadingPane />;
  return <SummaryWindow key={id} summaryId={id} home />;
}

export function HomePage() {
  const user = useAtomValue(currentUserAtom);
  // A visitor (of a Sidekick export link) has no Sidekick screen: it sees its link's targets.
  const sidekick = user?.LicenseMode === LicenseMode.Sidekick && !user.IsLiveshare;
  const summaries = user?.LicenseMode === LicenseMode.Professional && !user.IsLiveshare;
  const id = sidekick || summaries ? undefined : openTarget();
  useDocumentTitle(sidekick ? null : summaries ? 'All Targets' : id ? `Target ${id}` : 'New target');
  if (sidekick) return <SidekickPage />;
  if (summaries) return <AllTargetsHome />;
  return <TargetWindow key={id ?? 'new'} targetId={id} />;
}
