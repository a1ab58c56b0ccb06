// Which failed answers end what the console is doing and hand over to the shell (spec 1
// section 8, issue 41 item 6). Only the server's session check signs anyone out: it answers
// 401. A 403 is a refusal of that one call (a claim, a licence, a feature that is off, such
// as "Insights are off on this server") and stays that call's failure, shown where it was
// made. Two 403s are about the whole session and carry a header saying so: an expired trial
// (expired-trial: True, sign in again on the trial page) and a temporary password that must
// be replaced first (temporary-password: True, the change-password dialog; still signed in).
import { ExpiredTrialHeader, TemporaryPasswordHeader } from '../../../server/contract/account';

export type SessionAnswer = 'signedOut' | 'trialExpired' | 'temporaryPassword';

/** What a failed answer means for the session, or undefined when it is only that call's failure. */
export function sessionAnswer(status: number, headers: Pick<Headers, 'get'> | undefined): SessionAnswer | undefined {
  if (status === 401) return 'signedOut';
  if (status !== 403 || !headers) return undefined;
  if (headers.get(TemporaryPasswordHeader) === 'True') return 'temporaryPassword';
  if (headers.get(ExpiredTrialHeader) === 'True') return 'trialExpired';
  return undefined;
}
