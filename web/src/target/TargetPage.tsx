// Route element: /targets/:targetUniqueID? shows that target (or the new-target entry). "/"
// (the main target and summary container) is web/src/home/HomePage.
import { useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { rememberOpenTarget } from './openTarget';
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
