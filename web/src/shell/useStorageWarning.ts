// Looks at the data volume for users who manage settings (the ones who can act on it): at
// sign-in and every 10 minutes, a toast when it crossed 90% or 98% (storageWarning.ts). In the
// hosted flavour the disk is the provider's (an appliance-wide call): customers are not asked.
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { Claim } from '../../../server/contract/account';
import { getStorageUse } from '../api/storage';
import { showToast } from '../state/toasts';
import { currentUserAtom, isSelfHostedAtom } from '../state/user';
import { hasClaim } from './gates';
import { storageToast, type StorageLevel } from './storageWarning';

const LookEveryMs = 10 * 60_000;

export function useStorageWarning(): void {
  const user = useAtomValue(currentUserAtom);
  const selfHosted = useAtomValue(isSelfHostedAtom);
  // Hosted, of the users holding the claim only root is the provider (staff do not hold it).
  const allowed = hasClaim(user, Claim.SettingsManagement) && (selfHosted || user?.IsRoot === true);
  useEffect(() => {
    if (!allowed) return;
    let level: StorageLevel = 'ok';
    let stopped = false;
    const look = async () => {
      try {
        const use = await getStorageUse();
        if (stopped || !use) return;
        const next = storageToast(level, use.VolumeUsedPercent, use.VolumeFreeBytes);
        level = next.level;
        if (next.message) showToast(level === 'paused' ? 'error' : 'info', next.message, false);
      } catch {
        // The next look tries again; a failed look is not the user's business.
      }
    };
    void look();
    const timer = setInterval(() => void look(), LookEveryMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [allowed]);
}
