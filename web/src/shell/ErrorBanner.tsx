// The bottom banner with the latest error, Submit Ticket and Dismiss (spec 1 section 2).
import { useAtom, useSetAtom } from 'jotai';
import { Icon } from '../components/Icon';
import { errorBannerAtom, supportDialogOpenAtom } from '../state/dialogs';

export function ErrorBanner() {
  const [message, setMessage] = useAtom(errorBannerAtom);
  const openSupport = useSetAtom(supportDialogOpenAtom);
  if (message === null) return null;
  return (
    <div className="error-banner" role="alert">
      <Icon name="warning" size={16} />
      <span className="error-banner-text">{message}</span>
      <button type="button" className="button small" onClick={() => openSupport(true)}>Submit Ticket</button>
      <button type="button" className="button small ghost" onClick={() => setMessage(null)}>Dismiss</button>
    </div>
  );
}
