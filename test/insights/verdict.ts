// Judges Insights results against a scenario's expectations, and says what was found in
// one line (the suite prints these per-scenario verdicts).
import { InsufficientDataTests, isPotentialIssue, WisdomResultEnum, WisdomTestId, type WisdomTestResult } from '../../server/contract/insights.js';
import type { Expected } from './model.js';

const testName = new Map<number, string>(Object.entries(WisdomTestId).map(([k, v]) => [v, k]));
const outcomeName = new Map<number, string>(Object.entries(WisdomResultEnum).map(([k, v]) => [v, k]));

export interface Verdict {
  ok: boolean;
  /** "Fail_WAN_SustainedPacketLoss @ hop 3" and the like. */
  found: string;
  problems: string[];
}

const firstHop = (r: WisdomTestResult) => r.WisdomHosts[0]?.HopNumber;

export function judge(results: WisdomTestResult[], expect: Expected): Verdict {
  const problems: string[] = [];
  const notRun = results.some((r) => InsufficientDataTests.includes(r.TestID) && r.ResultEnum === WisdomResultEnum.Fail);
  const potential = notRun ? [] : results.filter((r) => isPotentialIssue(r.ResultEnum));
  const redHerring = results.find((r) => r.TestID === WisdomTestId.WAN_FindRedHerringHops);
  const found = notRun
    ? 'not run: ' + results.filter((r) => r.ResultEnum === WisdomResultEnum.Fail).map((r) => testName.get(r.TestID)).join(', ')
    : [
        ...potential.map((r) => `${outcomeName.get(r.ResultEnum)} @ hop ${firstHop(r) ?? '-'}`),
        ...(redHerring?.WisdomHosts.length ? [`red herring @ hop ${redHerring.WisdomHosts.map((h) => h.HopNumber + (h.RedHerringPacketLoss ? ' loss' : '') + (h.RedHerringLatency ? ' latency' : '')).join(', ')}`] : []),
      ].join('; ') || 'no Potential Issue';
  if (!!expect.notRun !== notRun) problems.push(expect.notRun ? 'expected the analysis not to run' : 'the analysis did not run');
  for (const want of expect.potential) {
    const r = potential.find((p) => p.TestID === want.test && p.ResultEnum === want.outcome);
    if (!r) problems.push(`missing ${outcomeName.get(want.outcome)} from ${testName.get(want.test)}`);
    else if (firstHop(r) !== want.hop) problems.push(`${testName.get(want.test)} names hop ${firstHop(r)}, expected ${want.hop}`);
  }
  const allowed = new Set([...expect.potential.map((p) => p.test), ...(expect.allowed ?? [])]);
  for (const r of potential) if (!allowed.has(r.TestID)) problems.push(`unexpected ${outcomeName.get(r.ResultEnum)} from ${testName.get(r.TestID)} @ hop ${firstHop(r) ?? '-'}`);
  for (const want of expect.redHerrings ?? []) {
    const h = redHerring?.WisdomHosts.find((x) => x.HopNumber === want.hop);
    if (!h || (want.loss && !h.RedHerringPacketLoss) || (want.latency && !h.RedHerringLatency)) problems.push(`hop ${want.hop} not flagged as a red herring`);
  }
  if (!notRun && expect.potential.length === 0 && !results.some((r) => r.ResultEnum === WisdomResultEnum.NoInsightsIdentified)) problems.push('no NoInsightsIdentified result');
  return { ok: problems.length === 0, found, problems };
}
