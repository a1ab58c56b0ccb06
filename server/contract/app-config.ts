// GET /api/app/config: what the console needs to know about this server before sign-in.
import type { DeploymentMode } from './account.js';

export interface AppConfig {
  DeploymentMode: DeploymentMode;
  Version: string;
  /** Insights shown (cloud edition, or self-hosted with HOPWATCH_INSIGHTS=1). */
  InsightsEnabled: boolean;
  /** The onboarding flavour (HOPWATCH_ONBOARDING=1): new users get the onboarding window. */
  Onboarding: boolean;
  /** Where the onboarding's sample trace goes (HOPWATCH_ONBOARDING_TARGET). */
  OnboardingTarget: string;
}
