// Named configurations (spec 2 "Configuration / display settings"): the display thresholds
// the grid and graphs colour by. Configurations are server-wide; the settings editor edits
// them, and these read them for the hub's DisplaySettings(configId) and REST.
import type { ConfigurationListItem, DisplaySettings, SettingsListItem } from '../contract/summaries.js';
import type { Principal } from '../account/principal.js';
import { notFound } from '../http/errors.js';
import type { Store } from '../store/db.js';

/** DisplaySettings(configId): Warn, Bad and Scale of one configuration. */
export async function getDisplaySettings(store: Store, principal: Principal, configId: number): Promise<DisplaySettings> {
  // Any signed-in user of the account may read them; configurations are per account.
  const row = await store.one<DisplaySettings>(
    'SELECT id, name, warn AS "Warn", bad AS "Bad", scale AS "Scale" FROM configurations WHERE id = $1 AND account_id = $2',
    [configId, principal.accountId],
  );
  if (!row) throw notFound(`Configuration ${configId} not found.`);
  return row;
}

/** The account's configurations in the settings tree's order (the Settings picker; shown when there is more than one). */
export function listConfigurations(store: Store, accountId: number): Promise<ConfigurationListItem[]> {
  return store.all<ConfigurationListItem>('SELECT id, name, description FROM configurations WHERE account_id = $1 ORDER BY position, id', [accountId]);
}

/** GET /cmd/getsettingslist: the account's configurations as settings list items. */
export async function listSettingsItems(store: Store, accountId: number): Promise<SettingsListItem[]> {
  return (await listConfigurations(store, accountId)).map(({ id, name }) => ({ id, name }));
}
