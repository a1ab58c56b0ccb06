// Settings > General's Timegraphs options for the time graphs of open consoles: read from
// getsettings, again on SettingsChanged. Until read (or when it fails) both names show.
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { settingsVersionAtom } from '../hub/hubEvents';
import * as api from './api';
import { nodeAt } from './logic/pending';
import { ShowBoth, type TimegraphOptions } from './logic/timegraphSubtitle';

export function useTimegraphOptions(): TimegraphOptions {
  const [options, setOptions] = useState<TimegraphOptions>(ShowBoth);
  const version = useAtomValue(settingsVersionAtom);
  useEffect(() => {
    api.getSettings().then(
      (r) => {
        const general = (name: string) => nodeAt(r.Settings.Root, `ClientSettings.General.${name}`)?.Value === true;
        setOptions({ hideSettingName: general('HideSettingNameOnTimegraph'), hideAgentName: general('HideAgentNameOnTimegraph') });
      },
      (e) => console.warn('getsettings failed', e),
    );
  }, [version]);
  return options;
}
