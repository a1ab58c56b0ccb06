// Applies a route gate: wait for authentication, send guests to sign in (with the return
// location), and show the not-found page when a claim or licence is missing.
import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { NotFoundPage } from '../pages/NotFoundPage';
import { authLoadingAtom, currentUserAtom, trialExpiredAtom } from '../state/user';
import { decideGate, type Gate } from './gates';
import { storedLiveShareId } from '../state/liveShareCookie';
import { LoadingPane } from './LoadingPane';

export function Guard({ gate, children }: { gate: Gate; children: ReactNode }) {
  const user = useAtomValue(currentUserAtom);
  const loading = useAtomValue(authLoadingAtom);
  const trialExpired = useAtomValue(trialExpiredAtom);
  const location = useLocation();
  switch (decideGate(gate, { loading, user })) {
    case 'wait':
      return <LoadingPane />;
    case 'login':
      return (
        // A browser that holds a LiveShare link and is signed out: the link no longer counts.
        <Navigate to={gate.signedOutTo ?? (storedLiveShareId() ? '/InvalidLiveshare' : trialExpired ? '/login?expired=true' : '/login')} replace
          state={{ from: location.pathname + location.search + location.hash }} />
      );
    case 'deny':
      return <NotFoundPage />;
    case 'allow':
      return <>{children}</>;
  }
}
