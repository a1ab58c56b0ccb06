// How long the server keeps raw samples (GET /api/data/RawRetention), read when asked (the
// download menu opens); a failure leaves no note (logged).
import { useCallback, useState } from 'react';
import type { RawRetention } from '../../../server/contract/datafiles';
import { get } from '../api/http';

export function useRawRetention() {
  const [retention, setRetention] = useState<RawRetention | null>(null);
  const load = useCallback(() => {
    get<RawRetention>('/api/data/RawRetention').then((r) => setRetention(r), (e) => console.warn('RawRetention failed', e));
  }, []);
  return { retention, load };
}
