// Answer of GET /api/app/config: what the console needs to know about this appliance before
// anyone signs in (deployment flavour for wording and the current-password rule, version).
import type { DeploymentMode } from './account.js';

export interface AppConfig {
  DeploymentMode: DeploymentMode;
  Version: string;
}
