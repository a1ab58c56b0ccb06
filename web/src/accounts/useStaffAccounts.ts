// The accounts list of the staff Accounts page; `reload` after every change.
import { useCallback, useEffect, useState } from 'react';
import type { StaffAccount } from '../../../server/contract/accounts';
import { reportError } from '../state/reportError';
import { listAccounts } from './api';

export function useStaffAccounts() {
  const [accounts, setAccounts] = useState<StaffAccount[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  useEffect(() => {
    let live = true;
    listAccounts()
      .then((list) => {
        if (!live) return;
        setAccounts(list);
        setLoaded(true);
      })
      .catch((e: unknown) => reportError(e, { prefix: 'Could not load the accounts: ' }));
    return () => {
      live = false;
    };
  }, [version]);
  return { accounts, loaded, reload };
}
