// Loads one staff list and reloads it on demand or when its inputs change; failures go
// through reportError (toast and banner). One job: the data, not how it is shown.
import { useCallback, useEffect, useState } from 'react';
import { reportError } from '../state/reportError';

export function useStaffData<T>(load: () => Promise<T>, deps: readonly unknown[], what: string, enabled = true) {
  const [data, setData] = useState<T>();
  const [loading, setLoading] = useState(false);
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    setLoading(true);
    load()
      .then((d) => live && setData(d))
      .catch((e: unknown) => live && reportError(e, { prefix: `Could not load ${what}: ` }))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, generation, enabled]);
  return { data, loading, reload };
}
