// Route elements: /targets/:targetUniqueID? shows that target (or the new-target entry), and
// "/" is the main container: the open target when there is one, else the new-target entry
// (the Sidekick licence keeps its own screen on "/").
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { LicenseMode } from '../../../server/contract/account';
import { ComingPage } from '../pages/ComingPage';
import { currentUserAtom } from '../state/user';
import { openTarget, rememberOpenTarget } from './openTarget';
import { sessionIdOf } from './logic/rowId';
import { TargetWindow } from './TargetWindow';
import './target.css';

export function TargetPage() {
  const { targetUniqueID } = useParams();
  // A row id (12_h_3) opens its target.
  const id = targetUniqueID ? sessionIdOf(targetUniqueID) : undefined;
  useEffect(() => {
    if (id) rememberOpenTarget(id);
  }, [id]);
  return <TargetWindow key={id ?? 'new'} targetId={id} />;
}

export function MainContainer() {
  const user = useAtomValue(currentUserAtom);
  if (user?.LicenseMode === LicenseMode.Sidekick) return <ComingPage screen="Sidekick" />;
  const id = openTarget();
  return <TargetWindow key={id ?? 'new'} targetId={id} />;
}
