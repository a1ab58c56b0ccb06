// The users and the role choices of the screen; `reload` after every change (spec 1 section 4).
import { useCallback, useEffect, useState } from 'react';
import type { RoleClaim, WebUser } from '../../../server/contract/users';
import { reportError } from '../state/reportError';
import { listRoles, listUsers } from './api';

export function useWebUsers(search: string) {
  const [users, setUsers] = useState<WebUser[]>([]);
  const [roles, setRoles] = useState<RoleClaim[]>([]);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);

  useEffect(() => {
    let live = true;
    listUsers(search)
      .then((list) => live && setUsers(list))
      .catch((e: unknown) => reportError(e, { prefix: 'Could not load the web users: ' }));
    return () => {
      live = false;
    };
  }, [search, version]);

  useEffect(() => {
    listRoles()
      .then(setRoles)
      .catch((e: unknown) => reportError(e, { prefix: 'Could not load the permissions: ' }));
  }, []);

  return { users, roles, reload };
}
