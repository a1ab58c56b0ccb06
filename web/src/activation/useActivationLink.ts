// Reads the link's token from the address (fragment) once, and asks the server whom it is for.
import { useEffect, useState } from 'react';
import type { ActivationLinkInfo } from '../../../server/contract/users';
import { ServerError, bodyErrorText, errorMessage } from '../api/errors';
import { describeActivationLink } from './api';
import { tokenFromHash } from './logic/activationLink';

export type LinkState =
  | { state: 'checking' }
  | { state: 'working'; token: string; info: ActivationLinkInfo }
  | { state: 'refused'; message: string };

export const failureText = (e: unknown) => (e instanceof ServerError ? bodyErrorText(e.body) : undefined) ?? errorMessage(e);

export function useActivationLink(hash: string): LinkState {
  const [link, setLink] = useState<LinkState>({ state: 'checking' });
  useEffect(() => {
    const token = tokenFromHash(hash);
    if (!token) {
      setLink({ state: 'refused', message: 'This address holds no activation link. Open the whole link from the mail, or ask your administrator for a new one.' });
      return;
    }
    let live = true;
    describeActivationLink(token)
      .then((info) => live && info && setLink({ state: 'working', token, info }))
      .catch((e: unknown) => live && setLink({ state: 'refused', message: failureText(e) }));
    return () => {
      live = false;
    };
  }, [hash]);
  return link;
}
