// The activation page's two public calls. Their 4xx answers (a link that does not work, a
// refused password) are this page's to show, never a lost session: no sign-in redirect.
import type { ActivationLinkInfo } from '../../../server/contract/users';
import { post } from '../api/http';

export const describeActivationLink = (token: string) => post<ActivationLinkInfo>('/api/Account/ActivationLink', { json: { Token: token }, authRedirect: false });

export const activate = (token: string, newPassword: string) =>
  post<ActivationLinkInfo>('/api/Account/Activate', { json: { Token: token, NewPassword: newPassword }, authRedirect: false });
