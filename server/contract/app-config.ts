// GET /api/app/config: what the console needs to know about this server before sign-in.
import type { DeploymentMode } from './account.js';

export interface AppConfig {
  DeploymentMode: DeploymentMode;
  Version: string;
  /** Insights shown (cloud edition, or self-hosted with HOPWATCH_INSIGHTS=1). */
  InsightsEnabled: boolean;
}
