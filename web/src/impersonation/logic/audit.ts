// Words for an impersonation audit row.
import { ImpersonationAction, type ImpersonationAuditEntry } from '../../../../server/contract/account';

export function actionText(r: Pick<ImpersonationAuditEntry, 'Action' | 'Detail'>): string {
  if (r.Action === ImpersonationAction.Start) return 'Started impersonating';
  if (r.Action === ImpersonationAction.End) return 'Cleared impersonation';
  return r.Detail;
}
