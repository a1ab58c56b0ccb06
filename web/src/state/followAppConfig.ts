// Keeps the appliance facts (/api/app/config) current in an open console: Settings > General >
// Insights (an appliance setting) changes InsightsEnabled, and the save raises SettingsChanged
// in every console, so each reads the facts again and the Insights button appears or goes
// without a reload. A failed read keeps the facts it had.
import { getAppConfig } from '../api/app';
import { settingsVersionAtom } from '../hub/hubEvents';
import { store } from './store';
import { appConfigAtom } from './user';

let following = false;

export function followAppConfig(): void {
  if (following) return;
  following = true;
  store.sub(settingsVersionAtom, () => {
    getAppConfig().then(
      (config) => config && store.set(appConfigAtom, config),
      (e: unknown) => console.warn('Could not read the appliance configuration again', e),
    );
  });
}
