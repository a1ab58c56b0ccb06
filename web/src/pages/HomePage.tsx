// "/": the Sidekick screen under the Sidekick licence, otherwise all targets and summaries.
import { useAtomValue } from 'jotai';
import { LicenseMode } from '../../../server/contract/account';
import { currentUserAtom } from '../state/user';
import { ComingPage } from './ComingPage';

export function HomePage() {
  const user = useAtomValue(currentUserAtom);
  if (user?.LicenseMode === LicenseMode.Sidekick) return <ComingPage screen="Sidekick" />;
  return <ComingPage screen="All Targets" note="Targets, their live grids and timeline graphs will appear here." />;
}
