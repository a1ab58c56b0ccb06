// Session Audit's data: the sign-in sessions for the filter, and revoking one (then reload).
import { useState } from 'react';
import { listSignInSessions, revokeSignInSession } from '../api';
import { useStaffData } from '../useStaffData';
import { reportError } from '../../state/reportError';
import { showToast } from '../../state/toasts';

export function useSignInSessions(filter: { userId?: number; accountId?: number; activeOnly: boolean }) {
  const { data, loading, reload } = useStaffData(() => listSignInSessions(filter), [filter.userId, filter.accountId, filter.activeOnly], 'the sign-in sessions');
  const [revoking, setRevoking] = useState<number>();
  const revoke = async (id: number) => {
    setRevoking(id);
    try {
      const s = await revokeSignInSession(id);
      showToast('info', `Signed ${s?.UserName ?? 'the user'} out of that session.`);
      reload();
    } catch (e) {
      reportError(e, { prefix: 'Could not revoke the session: ' });
    } finally {
      setRevoking(undefined);
    }
  };
  return { sessions: data ?? [], loading, revoke, revoking };
}
