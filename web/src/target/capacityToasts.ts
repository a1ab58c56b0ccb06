// Spec 1 section 8 "Capacity info" after a trace start on a remote agent: when all entitled
// remote traces run an info toast says so, when one slot is left another gives the counts;
// a start refused past the entitlement (newtarget's 409) shows the same "all running" info
// instead of an error. The entitlement is read after the start, so the counts include it.
import { LocalMachineAgentId } from '../../../server/contract/sessions';
import { errorMessage, ServerError } from '../api/errors';
import { getEntitlement } from '../agents/api';
import { capacityToast } from '../agents/logic/agentRows';
import { showInfo, showToast } from '../state/toasts';
import { store } from '../state/store';
import { isSelfHostedAtom } from '../state/user';

const selfHosted = () => store.get(isSelfHostedAtom);

async function capacityText(): Promise<string | undefined> {
  const e = await getEntitlement();
  return e ? capacityToast(e, selfHosted()) : undefined;
}

/** After a start on `agentId`: the capacity toast when one applies (none for the Local Machine). */
export async function toastCapacityAfterStart(agentId: number | undefined): Promise<void> {
  if (agentId === undefined || agentId === LocalMachineAgentId) return;
  try {
    const text = await capacityText();
    if (text) showInfo(text);
  } catch (e) {
    console.warn('cloudconnect-entitlement failed', e);
  }
}

/** A refused start: the capacity info for a full entitlement, else the error toast. */
export async function toastStartFailure(error: unknown, agentId: number | undefined): Promise<void> {
  if (error instanceof ServerError && error.status === 409 && agentId !== undefined && agentId !== LocalMachineAgentId) {
    const text = await capacityText().catch(() => undefined);
    return showInfo(text ?? errorMessage(error));
  }
  showToast('error', errorMessage(error) || 'Unknown string');
}
