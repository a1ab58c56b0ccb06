// The appliance's disk use, read once when Settings > General opens (and on Refresh).
import { useCallback, useEffect, useState } from 'react';
import type { StorageUse } from '../../../../server/contract/storage';
import { getStorageUse } from '../../api/storage';
import { errorMessage } from '../../api/errors';

export function useStorageUse(): { use: StorageUse | null; error: string | null; refresh: () => void } {
  const [use, setUse] = useState<StorageUse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    let current = true;
    getStorageUse().then(
      (u) => current && (setUse(u ?? null), setError(null)),
      (err: unknown) => current && setError(errorMessage(err)),
    );
    return () => {
      current = false;
    };
  }, [asked]);
  return { use, error, refresh: useCallback(() => setAsked((n) => n + 1), []) };
}
