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
import { useDocumentTitle } from '../shell/documentTitle';
import './target.css';

export function TargetPage() {
  const { targetUniqueID } = useParams();
  // A row id (12_h_3) opens its target.
  const id = targetUniqueID ? sessionIdOf(targetUniqueID) : undefined;
  // Until the target window names the target by its heading (it sets the title when it knows it).
  useDocumentTitle(id ? `Target ${id}` : 'New target');
  useEffect(() => {
    if (id) rememberOpenTarget(id);
  }, [id]);
  return <TargetWindow key={id ?? 'new'} targetId={id} />;
}

export function MainContainer() {
  const user = useAtomValue(currentUserAtom);
  const sidekick = user?.LicenseMode === LicenseMode.Sidekick;
  const id = sidekick ? undefined : openTarget();
  useDocumentTitle(sidekick ? null : id ? `Target ${id}` : 'New target');
  if (sidekick) return <ComingPage screen="Sidekick" />;
  return <TargetWindow key={id ?? 'new'} targetId={id} />;
}
