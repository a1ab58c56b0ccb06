// /summary: the account's summaries (All Targets first) with their target counts, "New
// Summary" for SummaryManagement. A load failure reads "Error: {message}" (spec 2 section 8).
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Claim } from '../../../server/contract/account';
import type { Summary } from '../../../server/contract/summaries';
import { errorMessage } from '../api/errors';
import { newSummary } from '../api/summaries';
import { summaryListVersionAtom } from '../hub/hubEvents';
import { useDocumentTitle } from '../shell/documentTitle';
import { reportError } from '../state/reportError';
import { currentUserAtom } from '../state/user';
import { getSummaries } from './api';
import { errorText } from './logic/summaryRules';
import './summary.css';

export function SummaryListPage() {
  useDocumentTitle('Summaries');
  const navigate = useNavigate();
  const user = useAtomValue(currentUserAtom);
  const version = useAtomValue(summaryListVersionAtom);
  const [list, setList] = useState<Summary[] | null>(null);
  const [error, setError] = useState<string>();
  useEffect(() => {
    getSummaries().then(
      (all) => (setList(all ?? []), setError(undefined)),
      (e) => setError(errorText(errorMessage(e))),
    );
  }, [version]);
  const create = async () => {
    const name = window.prompt('Enter new summary name')?.trim();
    if (!name) return;
    try {
      const s = await newSummary(name);
      if (s?.UniqueID) navigate(`/summary/${encodeURIComponent(s.UniqueID)}`);
    } catch (e) {
      reportError(e);
    }
  };
  const count = (n: number) => (n === 1 ? '1 target' : `${n} targets`);
  return (
    <section className="page">
      <header className="page-header">
        <h1>Summaries</h1>
        {user?.Claims.includes(Claim.SummaryManagement) && (
          <button type="button" className="button primary" onClick={() => void create()}>
            New Summary
          </button>
        )}
      </header>
      {error && <p className="field-error">{error}</p>}
      {list === null && !error && <p className="hint">Loading…</p>}
      {list && (
        <ul className="summary-list" aria-label="Summaries">
          {list.map((s) => (
            <li key={s.UniqueID}>
              <Link to={s.IsAllTargets ? '/' : `/summary/${encodeURIComponent(s.UniqueID)}`}>
                <span>{s.Name}</span>
                <span className="count">{count(s.TargetCount)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {list && list.filter((s) => !s.IsAllTargets).length === 0 && <p className="hint summary-list-hint">No named summaries yet. A summary groups targets to watch them side by side.</p>}
    </section>
  );
}
