// The verdicts of a Troubleshoot run: per target, the Insights it found (Potential Issues)
// and what was ruled out, or why the analysis did not run.
import { InsufficientDataTests, isPotentialIssue, isRuledOut } from '../../../server/contract/insights';
import { Modal } from '../components/Modal';
import type { Verdict } from './useTroubleshoot';

function VerdictView({ v }: { v: Verdict }) {
  if (v.error) return <p className="sidekick-verdict-error">Insights did not run: {v.error}</p>;
  // Too little data: the analysis did not run; its reasons, not issues (spec 3 section 8).
  const reasons =
    v.notRun ??
    v.result?.Results.filter((r) => InsufficientDataTests.includes(r.TestID) && isPotentialIssue(r.ResultEnum)).map((r) => r.Description.join(' ') || r.Title) ??
    [];
  if (reasons.length)
    return (
      <div className="sidekick-not-run">
        <p>Insights did not run yet:</p>
        <ul>{reasons.map((r) => <li key={r}>{r}</li>)}</ul>
      </div>
    );
  if (!v.result) return <p className="sidekick-verdict-pending">Testing...</p>;
  const issues = v.result.Results.filter((r) => isPotentialIssue(r.ResultEnum));
  const ruledOut = v.result.Results.filter((r) => isRuledOut(r.ResultEnum));
  const other = v.result.Results.filter((r) => !isPotentialIssue(r.ResultEnum) && !isRuledOut(r.ResultEnum));
  return (
    <>
      {issues.length ? (
        <div className="sidekick-issues">
          <h4>Potential Issues</h4>
          <ul>{issues.map((r) => <li key={r.TestID}><strong>{r.Title}</strong>{r.Description.length ? `: ${r.Description.join(' ')}` : ''}</li>)}</ul>
        </div>
      ) : (
        <p className="sidekick-no-issues">No potential issues found.</p>
      )}
      {ruledOut.length > 0 && <p className="sidekick-ruled-out">Ruled out: {ruledOut.map((r) => r.Title).join(', ')}</p>}
      {other.length > 0 && <p className="sidekick-ruled-out">{other.map((r) => r.Title).join('; ')}</p>}
    </>
  );
}

export function TroubleshootDialog({ verdicts, running, onClose }: { verdicts: Verdict[]; running: boolean; onClose: () => void }) {
  return (
    <Modal title={running ? 'Troubleshooting...' : 'Troubleshoot results'} onClose={onClose} width={560}>
      <div className="sidekick-verdicts">
        {verdicts.length === 0 && <p>No traced targets to troubleshoot yet.</p>}
        {verdicts.map((v) => (
          <section key={v.target.WebTargetID} className="sidekick-verdict">
            <h3>{v.target.Label} ({v.target.ExportDetails.DNSName || v.target.ExportDetails.IP})</h3>
            <VerdictView v={v} />
          </section>
        ))}
      </div>
    </Modal>
  );
}
