// Summaries group with "New Summary" (spec 1 section 2): the name comes from a prompt; an
// empty or cancelled answer does nothing; a failure shows the error toast and stays put.
// The list needs the Professional licence; a failure to load it shows "Error: {message}".
// It is read again when the hub says the list or the sessions changed (another tab, user).
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Claim, LicenseMode } from '../../../server/contract/account';
import { getSummaries, newSummary, type SummaryInfo } from '../api/summaries';
import { errorMessage } from '../api/errors';
import { reportError } from '../state/reportError';
import { currentUserAtom } from '../state/user';
import { summaryListVersionAtom } from '../hub/hubEvents';
import { hasClaim } from './gates';
import { NavGroup, NavItem } from './NavItem';

export function SummariesGroup() {
  const user = useAtomValue(currentUserAtom);
  const navigate = useNavigate();
  const [open, setOpen] = useState(true);
  const [list, setList] = useState<SummaryInfo[]>([]);
  const [loadError, setLoadError] = useState<string>();
  const mayList = !!user && user.LicenseMode === LicenseMode.Professional && !user.IsLiveshare;

  const reload = useCallback(async () => {
    if (!mayList) return;
    try {
      setList((await getSummaries()) ?? []);
      setLoadError(undefined);
    } catch (e) {
      setLoadError(`Error: ${errorMessage(e)}`);
    }
  }, [mayList]);
  const listVersion = useAtomValue(summaryListVersionAtom);
  useEffect(() => {
    void reload();
  }, [reload, listVersion]);

  const create = async () => {
    const name = window.prompt('Enter new summary name')?.trim();
    if (!name) return;
    try {
      const summary = await newSummary(name);
      await reload();
      if (summary?.UniqueID) navigate(`/summary/${encodeURIComponent(summary.UniqueID)}`);
    } catch (e) {
      reportError(e);
    }
  };

  return (
    <NavGroup title="Summaries" icon="summary" open={open} onToggle={() => setOpen(!open)}>
      {loadError && <div className="nav-empty">{loadError}</div>}
      {list
        .filter((x) => !x.IsAllTargets)
        .map((x) => (
          <NavItem key={x.UniqueID} label={`${x.Name} (${x.TargetCount})`} to={`/summary/${encodeURIComponent(x.UniqueID)}`} />
        ))}
      {!loadError && list.filter((x) => !x.IsAllTargets).length === 0 && <div className="nav-empty">No summaries yet.</div>}
      {hasClaim(user, Claim.SummaryManagement) && <NavItem icon="plus" label="New Summary" onClick={() => void create()} />}
    </NavGroup>
  );
}
