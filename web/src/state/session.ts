// Loading and refreshing who is signed in.
import { DeploymentMode, type CurrentUser } from '../../../server/contract/account';
import { setBearerTokenSource } from '../hub/connection';
import { forgetHubBearerToken, hubBearerToken } from '../hub/bearerToken';
import { getCurrentUser } from '../api/account';
import { getAppConfig } from '../api/app';
import { ServerError } from '../api/errors';
import { reportError } from './reportError';
import { store } from './store';
import { rememberSessionsReadable } from '../sessions/preload';
import { appConfigAtom, authLoadingAtom, currentUserAtom } from './user';

const isAuthAnswer = (e: unknown) => e instanceof ServerError && (e.status === 401 || e.status === 403);

/** Asks the server who is signed in; a 401/403 means nobody. Other failures are thrown. */
export async function fetchCurrentUser(): Promise<CurrentUser | null> {
  try {
    return await getCurrentUser();
  } catch (e) {
    if (isAuthAnswer(e)) return null;
    throw e;
  }
}

/** Start-up: appliance facts and the current user. Throws when the server cannot answer. */
export async function loadSession(): Promise<void> {
  const [config, user] = await Promise.all([
    getAppConfig().catch((e: unknown) => {
      reportError(e, { prefix: 'Could not read the appliance configuration: ' });
      return null;
    }),
    fetchCurrentUser(),
  ]);
  if (config) store.set(appConfigAtom, config);
  // Cloud mode: the hub connection sends a bearer token and connects only once one is set.
  if (config?.DeploymentMode === DeploymentMode.Cloud) setBearerTokenSource(hubBearerToken, forgetHubBearerToken);
  store.set(currentUserAtom, user);
  rememberSessionsReadable(user?.Claims);
  store.set(authLoadingAtom, false);
}

/** Refreshes the current user; failures go through the error path. */
export async function refreshCurrentUser(): Promise<void> {
  try {
    const user = await fetchCurrentUser();
    store.set(currentUserAtom, user);
    rememberSessionsReadable(user?.Claims);
  } catch (e) {
    reportError(e);
  }
}
