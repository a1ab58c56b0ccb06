// The account's subscription, loaded once per visit (the figures change with agents and traces).
import { useEffect, useState } from 'react';
import type { Subscription } from '../../../server/contract/accounts';
import { reportError } from '../state/reportError';
import { getSubscription } from './api';

export function useSubscription(): Subscription | null {
  const [sub, setSub] = useState<Subscription | null>(null);
  useEffect(() => {
    let live = true;
    getSubscription()
      .then((s) => live && setSub(s))
      .catch((e: unknown) => reportError(e, { prefix: 'Could not load the subscription: ' }));
    return () => {
      live = false;
    };
  }, []);
  return sub;
}
