// Settings > General's Timegraphs options for the time graphs of open consoles: read from
// getsettings, again on SettingsChanged. Until read (or when it fails) both names show.
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { settingsVersionAtom } from '../hub/hubEvents';
import * as api from './api';
import { nodeAt } from './logic/pending';
import { ShowBoth, type TimegraphOptions } from './logic/timegraphSubtitle';

/** One read per settings version, shared by every graph on screen (a summary shows many). */
let shared: { version: number; options: Promise<TimegraphOptions> } | undefined;

function readOptions(version: number): Promise<TimegraphOptions> {
  if (shared?.version !== version) {
    const options = api.getSettings().then((r) => {
      const general = (name: string) => nodeAt(r.Settings.Root, `ClientSettings.General.${name}`)?.Value === true;
      return { hideSettingName: general('HideSettingNameOnTimegraph'), hideAgentName: general('HideAgentNameOnTimegraph') };
    });
    // A failed read is tried again by the next graph that asks.
    options.catch(() => (shared = undefined));
    shared = { version, options };
  }
  return shared.options;
}

export function useTimegraphOptions(): TimegraphOptions {
  const [options, setOptions] = useState<TimegraphOptions>(ShowBoth);
  const version = useAtomValue(settingsVersionAtom);
  useEffect(() => {
    let live = true;
    readOptions(version).then(
      (o) => live && setOptions(o),
      (e) => console.warn('getsettings failed', e),
    );
    return () => {
      live = false;
    };
  }, [version]);
  return options;
}
