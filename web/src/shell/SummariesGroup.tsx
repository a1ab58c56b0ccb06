// Summaries group with "New Summary" (spec 1 section 2): the name comes from a prompt; an
// empty or cancelled answer does nothing; a failure shows the error toast and stays put.
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Claim } from '../../../server/contract/account';
import { newSummary } from '../api/summaries';
import { reportError } from '../state/reportError';
import { currentUserAtom } from '../state/user';
import { hasClaim } from './gates';
import { NavGroup, NavItem } from './NavItem';

export function SummariesGroup() {
  const user = useAtomValue(currentUserAtom);
  const navigate = useNavigate();
  const [open, setOpen] = useState(true);

  const create = async () => {
    const name = window.prompt('Enter new summary name')?.trim();
    if (!name) return;
    try {
      const summary = await newSummary(name);
      if (summary?.UniqueID) navigate(`/summary/${encodeURIComponent(summary.UniqueID)}`);
    } catch (e) {
      reportError(e);
    }
  };

  return (
    <NavGroup title="Summaries" icon="summary" open={open} onToggle={() => setOpen(!open)}>
      {/* The summary list itself comes with the summaries screens. */}
      <div className="nav-empty">Summaries appear here.</div>
      {hasClaim(user, Claim.SummaryManagement) && <NavItem icon="plus" label="New Summary" onClick={() => void create()} />}
    </NavGroup>
  );
}
