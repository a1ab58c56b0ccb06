import type { AppConfig } from '../../../server/contract/app-config';
import { get } from './http';

export const getAppConfig = () => get<AppConfig>('/api/app/config', { authRedirect: false });
