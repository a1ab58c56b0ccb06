// Who is signed in, and whether that is known yet.
import { atom } from 'jotai';
import type { CurrentUser } from '../../../server/contract/account';
import { DeploymentMode } from '../../../server/contract/account';
import type { AppConfig } from '../../../server/contract/app-config';

export const currentUserAtom = atom<CurrentUser | null>(null);

/** True until the first GetCurrentUser answer (or failure) at start-up. */
export const authLoadingAtom = atom(true);

/** Set when a 401/403 carried expired-trial: True; sign-in then shows the Trial Expired notice. */
export const trialExpiredAtom = atom(false);

/** Appliance facts; self-hosted until the server says otherwise (spec 1 section 1 default). */
export const appConfigAtom = atom<AppConfig>({ DeploymentMode: DeploymentMode.SelfHosted, Version: '', InsightsEnabled: false, Onboarding: false, OnboardingTarget: '' });

export const isSelfHostedAtom = atom((get) => get(appConfigAtom).DeploymentMode === DeploymentMode.SelfHosted);
