// Toasts bottom-right: newest at the bottom, 5 s each, double click or × dismisses.
import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { Icon } from '../components/Icon';
import { errorBannerAtom, supportDialogOpenAtom } from '../state/dialogs';
import { ToastOffset, ToastSpacing, ToastTimeoutMs, dismissToast, toastsAtom, type Toast } from '../state/toasts';

function ToastView({ toast }: { toast: Toast }) {
  const openSupport = useSetAtom(supportDialogOpenAtom);
  useEffect(() => {
    const timer = setTimeout(() => dismissToast(toast.id), ToastTimeoutMs);
    return () => clearTimeout(timer);
  }, [toast.id]);
  return (
    <div className={`toast toast-${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'} onDoubleClick={() => dismissToast(toast.id)}>
      <div className="toast-head">
        <strong>{toast.title}</strong>
        <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismissToast(toast.id)}>
          <Icon name="close" size={14} />
        </button>
      </div>
      <div className="toast-message">{toast.message}</div>
      {toast.submittable && (
        <button type="button" className="button small" onClick={() => { dismissToast(toast.id); openSupport(true); }}>
          Submit Ticket
        </button>
      )}
    </div>
  );
}

export function Toasts() {
  const toasts = useAtomValue(toastsAtom);
  const bannerShown = useAtomValue(errorBannerAtom) !== null;
  // Offset from the page corner; lifted above the error banner while it shows.
  const bottom = ToastOffset + (bannerShown ? 48 : 0);
  return (
    <div className="toasts" style={{ bottom, right: ToastOffset, gap: ToastSpacing }} aria-live="polite">
      {toasts.map((t) => <ToastView key={t.id} toast={t} />)}
    </div>
  );
}
