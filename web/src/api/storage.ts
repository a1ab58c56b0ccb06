// Disk use of the appliance (GET /api/settings/storage; SettingsManagement).
import type { StorageUse } from '../../../server/contract/storage';
import { get } from './http';

export const getStorageUse = () => get<StorageUse>('/api/settings/storage');
