// The Sidekick summary (stages DiscoveringTargets and Running, spec 3 section 2.5): collected
// duration and target count, Local Sources (3 cards) and External Sources (2 cards), the
// 10-minute message, Clear All and Restart, Export Data.
import { useEffect, useState } from 'react';
import {
  ExternalSourceKinds,
  LocalSourceKinds,
  SidekickMinimumDataMs,
  SidekickStage,
  SidekickTargetCount,
  type SidekickState,
  type SidekickTarget,
} from '../../../server/contract/sidekick';
import { collectedDuration, hasEnoughData } from './logic/status';
import { SidekickCard } from './SidekickCard';
import { TroubleshootDialog } from './TroubleshootDialog';
import { useTroubleshoot } from './useTroubleshoot';

/** Spec 3 section 9: default Warn and Bad latency. */
const WarnMs = 100;
const BadMs = 250;

function useNow(everyMs: number): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

function Group({ title, targets, all, onTroubleshoot }: { title: string; targets: SidekickTarget[]; all: SidekickTarget[]; onTroubleshoot: (t: SidekickTarget[]) => void }) {
  return (
    <section className="sidekick-group" aria-label={title}>
      <h2>{title}</h2>
      <div className="sidekick-cards">
        {targets.map((t) => (
          <SidekickCard key={t.Kind} target={t} warnMs={WarnMs} badMs={BadMs} onTroubleshoot={(scope) => onTroubleshoot(scope === 'this' ? [t] : all)} />
        ))}
      </div>
    </section>
  );
}

export function SidekickSummary({ state, onRestart, onExport }: { state: SidekickState; onRestart: () => void; onExport: () => void }) {
  const now = useNow(15_000);
  const troubleshoot = useTroubleshoot();
  const traced = state.Targets.filter((t) => t.WebTargetID);
  const of = (kinds: readonly string[]) => state.Targets.filter((t) => kinds.includes(t.Kind));
  const discovering = state.Stage === SidekickStage.DiscoveringTargets;
  return (
    <div className="sidekick-summary">
      <div className="sidekick-toolbar">
        <p className="sidekick-collected">
          Collected <strong>{collectedDuration(state.StartTime, now)}</strong> of data on <strong>{traced.length}</strong> of {SidekickTargetCount} targets
          {discovering && <span className="sidekick-discovering"> - discovering targets...</span>}
        </p>
        <button type="button" className="button secondary" onClick={() => window.confirm('Close the Sidekick traces and start discovery again?') && onRestart()}>
          Clear All and Restart
        </button>
        <button type="button" className="button" onClick={onExport}>
          Export Data
        </button>
      </div>
      {!hasEnoughData(state.StartTime, now, SidekickMinimumDataMs) && (
        <p className="sidekick-minimum" role="status">
          Sidekick needs at least 10 minutes of data to give meaningful results: leave it running and come back.
        </p>
      )}
      <Group title="Local Sources" targets={of(LocalSourceKinds)} all={traced} onTroubleshoot={troubleshoot.run} />
      <Group title="External Sources" targets={of(ExternalSourceKinds)} all={traced} onTroubleshoot={troubleshoot.run} />
      {troubleshoot.verdicts && <TroubleshootDialog verdicts={troubleshoot.verdicts} running={troubleshoot.running} onClose={troubleshoot.close} />}
    </div>
  );
}
