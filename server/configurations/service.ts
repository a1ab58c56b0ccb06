// Named configurations (spec 2 "Configuration / display settings"): the display thresholds
// the grid and graphs colour by. Configurations are server-wide; the settings editor edits
// them, and these read them for the hub's DisplaySettings(configId) and REST.
import type { ConfigurationListItem, DisplaySettings, SettingsListItem } from '../contract/summaries.js';
import type { Principal } from '../account/principal.js';
import { notFound } from '../http/errors.js';
import type { Store } from '../store/db.js';

/** DisplaySettings(configId): Warn, Bad and Scale of one configuration. */
export async function getDisplaySettings(store: Store, principal: Principal, configId: number): Promise<DisplaySettings> {
  void principal; // any signed-in user may read them; the caller has checked sign-in
  const row = await store.one<DisplaySettings>(
    'SELECT id, name, warn AS "Warn", bad AS "Bad", scale AS "Scale" FROM configurations WHERE id = $1',
    [configId],
  );
  if (!row) throw notFound(`Configuration ${configId} not found.`);
  return row;
}

/** Every configuration, in id order (the Settings picker; shown when there is more than one). */
export function listConfigurations(store: Store): Promise<ConfigurationListItem[]> {
  return store.all<ConfigurationListItem>('SELECT id, name, description FROM configurations ORDER BY id');
}

/** GET /cmd/getsettingslist: every configuration as a settings list item, in id order. */
export async function listSettingsItems(store: Store): Promise<SettingsListItem[]> {
  return (await listConfigurations(store)).map(({ id, name }) => ({ id, name }));
}
