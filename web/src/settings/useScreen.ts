// One settings screen (GET /cmd/getscreen): the traits of its editors and its header HTML,
// read again when the entry or the saved settings change. The HTML is escaped by the server
// (server/settings/screens.ts); the page's Content-Security-Policy keeps inline script out too.
import { useEffect, useState } from 'react';
import type { Trait } from '../../../server/contract/settings';
import { errorMessage } from '../api/errors';
import * as api from './api';

export function useScreen(screenName: string | null, configId: number | undefined, version: number) {
  const [screen, setScreen] = useState<{ traits: Trait[]; html: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!screenName) return setScreen(null);
    let live = true;
    api.getScreen(screenName, configId).then(
      (s) => {
        if (!live) return;
        setScreen({ traits: JSON.parse(s.serializedTraits) as Trait[], html: s.html });
        setError(null);
      },
      (e) => live && setError(errorMessage(e)),
    );
    return () => {
      live = false;
    };
  }, [screenName, configId, version]);
  return { screen, error };
}
