// Whether the alerts sidebar is shown: local storage alert_sidebar_visible, default false (spec 1).
import { useCallback, useState } from 'react';

const Key = 'alert_sidebar_visible';

function read(): boolean {
  try {
    return localStorage.getItem(Key) === 'true';
  } catch {
    return false;
  }
}

export function useAlertsSidebarVisible(): [boolean, () => void] {
  const [visible, setVisible] = useState(read);
  const toggle = useCallback(() => {
    setVisible((v) => {
      try {
        localStorage.setItem(Key, String(!v));
      } catch {
        /* storage full or off: the toggle still works for this page */
      }
      return !v;
    });
  }, []);
  return [visible, toggle];
}
