// The Graph scale setting of each named configuration (DisplaySettings per configuration id of
// the settings list), by name: the summary's graphs follow their own target's configuration
// (logic/summaryScale). Read again on SettingsChanged, so a saved Scale shows at once.
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { settingsVersionAtom } from '../hub/hubEvents';
import * as api from '../target/api';
import type { ScalesByName } from './logic/summaryScale';

export function useConfigurationScales(list: readonly api.SettingsListItem[]): ScalesByName {
  const settingsVersion = useAtomValue(settingsVersionAtom);
  const [scales, setScales] = useState<ScalesByName>(new Map());
  const key = list.map((c) => `${c.id}:${c.name}`).join(',');
  useEffect(() => {
    let live = true;
    Promise.all(list.map(async (c) => [c.name, (await api.displaySettings(c.id))?.Scale] as const)).then(
      (pairs) => live && setScales(new Map(pairs.filter((p): p is [string, number] => typeof p[1] === 'number'))),
      (e) => console.warn('DisplaySettings failed', e),
    );
    return () => {
      live = false;
    };
    // The list's content, not its identity, decides what to read.
  }, [key, settingsVersion]);
  return scales;
}
