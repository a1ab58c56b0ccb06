// The editor's state: the settings as loaded (kept to compare and show changes), the pending
// changes over them, and the calls that save, clone, create and delete. SettingsChanged from
// another console reloads the saved settings under the pending edits (which are kept).
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Settings, SettingsResult, SettingValue } from '../../../server/contract/settings';
import { errorMessage } from '../api/errors';
import { settingsVersionAtom } from '../hub/hubEvents';
import * as api from './api';
import { keepKnown, NoPending, pendingCount, saveTree, setOrder, setValue, type Pending } from './logic/pending';

export type EditorStatus = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'ready' };

export function useSettingsEditor() {
  const [settings, setSettings] = useState<Settings | null>(null);
  const [pending, setPending] = useState<Pending>(NoPending);
  const [status, setStatus] = useState<EditorStatus>({ kind: 'loading' });
  const [busy, setBusy] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const pendingRef = useRef(pending);
  pendingRef.current = pending;

  /** New saved settings; pending edits stay where the paths still exist. */
  const adopt = useCallback((s: Settings) => {
    setSettings(s);
    setPending((p) => keepKnown(s.Root, p));
  }, []);

  const settingsVersion = useAtomValue(settingsVersionAtom);
  useEffect(() => {
    api.getSettings().then(
      (r) => {
        adopt(r.Settings);
        setStatus({ kind: 'ready' });
      },
      (e) => setStatus({ kind: 'failed', message: errorMessage(e) }),
    );
  }, [settingsVersion, adopt]);

  /** Runs a call that answers new settings; its failure is shown and the edits kept. */
  const run = useCallback(
    async (call: () => Promise<SettingsResult>, clearPending: boolean): Promise<SettingsResult | null> => {
      setBusy(true);
      setSaveError(null);
      try {
        const r = await call();
        setSettings(r.Settings);
        setPending((p) => (clearPending ? NoPending : keepKnown(r.Settings.Root, p)));
        return r;
      } catch (e) {
        console.error('settings change failed', e);
        setSaveError(errorMessage(e));
        // A conflict: show what the other console saved, keep these edits on top.
        api.getSettings().then((r) => adopt(r.Settings), () => undefined);
        return null;
      } finally {
        setBusy(false);
      }
    },
    [adopt],
  );

  const version = settings?.Version ?? 0;
  return {
    settings,
    status,
    pending,
    count: pendingCount(pending),
    busy,
    saveError,
    setValue: (path: string, value: SettingValue) => settings && setPending((p) => setValue(settings.Root, p, path, value)),
    setOrder: (order: number[]) => settings && setPending((p) => setOrder(settings.Root, p, order)),
    cancel: () => {
      setPending(NoPending);
      setSaveError(null);
    },
    save: () => run(() => api.saveSettings(version, saveTree(pendingRef.current)), true),
    createNew: () => run(() => api.createNewConfig(version, saveTree(pendingRef.current)), true),
    clone: (configId: number) => run(() => api.cloneConfig(configId, version, saveTree(pendingRef.current)), true),
    remove: (configId: number) => run(() => api.deleteConfig(configId, version), false),
  };
}
