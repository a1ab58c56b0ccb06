// Browser tab titles: every screen names itself, "{screen} - Hopwatch" (issue 15: every tab
// read "Hopwatch", so several open targets could not be told apart in the tab strip or the
// history). The screen's name comes first because a narrow tab shows only its beginning.
import { useEffect } from 'react';

export const ProductTitle = 'Hopwatch';

/** "{screen} - Hopwatch"; the product name alone for an empty screen name. */
export function documentTitle(screen: string | null | undefined): string {
  const name = screen?.trim();
  return name ? `${name} - ${ProductTitle}` : ProductTitle;
}

/**
 * Sets the tab title while the calling screen shows (and whenever the name changes); null
 * leaves it to an inner screen. Inner effects run first, so an outer screen's title (the
 * route's provisional "Target 12") is replaced by the inner one's only when that changes.
 */
export function useDocumentTitle(screen: string | null): void {
  useEffect(() => {
    if (screen !== null) document.title = documentTitle(screen);
  }, [screen]);
}
