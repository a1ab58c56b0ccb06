// Spec 3 section 8: a failed Sidekick status load is shown ("Error loading Sidekick status:
// {message}", after 1 s) only when the HTTP status is not 4xx: a 4xx is an answer about the
// user (signed out, no licence), which the shell and the state already show.
import { ServerError } from '../../api/errors';

export const StatusErrorPrefix = 'Error loading Sidekick status: ';
export const DiscoveryErrorPrefix = 'Error initializing discovery Sidekick status: ';

export function reportsStatusError(error: unknown): boolean {
  return !(error instanceof ServerError && error.status >= 400 && error.status < 500);
}
