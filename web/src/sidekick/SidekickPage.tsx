// The Sidekick screen (spec 3 sections 2.5 and 4.2): "/" under the Sidekick licence and
// /sidekick. The stage picks the view: unavailable -> purchase; Uninitialized -> welcome;
// DiscoveringTargets/Running -> the summary (or its export view); Done -> no display, only
// the way to start again.
import { useState } from 'react';
import { SidekickStage } from '../../../server/contract/sidekick';
import { LoadingPane } from '../shell/LoadingPane';
import { useDocumentTitle } from '../shell/documentTitle';
import { SidekickExport } from './SidekickExport';
import { SidekickSummary } from './SidekickSummary';
import { PurchaseView, WelcomeView } from './SidekickViews';
import { useSidekickState } from './useSidekickState';
import './sidekick.css';

export function SidekickPage() {
  useDocumentTitle('Sidekick');
  const { state, start, starting } = useSidekickState();
  const [exporting, setExporting] = useState(false);
  if (state === undefined) return <LoadingPane />;
  let body;
  if (state === null || !state.SidekickAvailable || state.Stage === SidekickStage.Disabled) body = <PurchaseView />;
  else if (state.Stage === SidekickStage.Uninitialized) body = <WelcomeView onStart={start} starting={starting} />;
  else if (state.Stage === SidekickStage.Done)
    body = (
      <section className="sidekick-done">
        <p>Sidekick's traces are no longer running.</p>
        <button type="button" className="button" onClick={() => start()} disabled={starting}>
          Clear All and Restart
        </button>
      </section>
    );
  else if (exporting) body = <SidekickExport onBack={() => setExporting(false)} />;
  else body = <SidekickSummary state={state} onRestart={() => start()} onExport={() => setExporting(true)} />;
  return (
    <div className="sidekick-page">
      <h1>Sidekick</h1>
      {body}
    </div>
  );
}
