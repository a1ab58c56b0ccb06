// Public facts about this server that the console needs before sign-in.
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../contract/app-config.js';
import { AppConfigSchema } from '../openapi/answers.js';
import { insightsEnabled } from '../insights/edition.js';

export default async function appConfigPlugin(app: FastifyInstance, opts: { version: string }) {
  app.get('/api/app/config', { config: { changesState: false, access: 'public' }, schema: { response: { 200: AppConfigSchema } } }, async (): Promise<AppConfig> => ({
    DeploymentMode: app.config.deployment,
    Version: opts.version,
    InsightsEnabled: await insightsEnabled(app.store, app.config),
    Onboarding: app.config.onboarding,
    OnboardingTarget: app.config.onboardingTarget,
  }));
}
