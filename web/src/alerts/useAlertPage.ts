// Which alerts page the sidebar shows and its HTML: loaded again when the selected rows
// change (spec 3 section 2.7); a page asked for as a modal is kept apart, and closing it
// goes back to the main page. A failed load shows an error toast with the server's text.
import { useCallback, useEffect, useRef, useState } from 'react';
import { reportError } from '../state/reportError';
import { getAlertPage, type AlertPageAnswer } from './api';

export interface PageRef {
  page: string;
  params: unknown;
}

const Main: PageRef = { page: 'Alerts/Management.html', params: {} };

export function useAlertPage(selection: readonly string[], active: boolean) {
  const [main, setMain] = useState<{ ref: PageRef; html: string } | null>(null);
  const [modal, setModal] = useState<{ ref: PageRef; html: string } | null>(null);
  const selectionKey = selection.join(',');
  const latest = useRef(0);

  const fetchPage = useCallback(
    async (ref: PageRef): Promise<AlertPageAnswer | null> => {
      const n = ++latest.current;
      try {
        const a = await getAlertPage(ref.page, ref.params, selection);
        return n === latest.current ? a : null;
      } catch (e) {
        reportError(e);
        return null;
      }
    },
    // The selection is read through selectionKey (a new array each render would refetch forever).
    [selectionKey],
  );

  /** Loads a page: into the sidebar, or as a modal. Actions (params.Action) run once: the sidebar then shows the plain page. */
  const open = useCallback(
    async (ref: PageRef, asModal = false) => {
      const a = await fetchPage(ref);
      if (!a) return;
      if (asModal) setModal({ ref, html: a.HTML });
      else {
        setModal(null);
        setMain({ ref: { page: ref.page, params: {} }, html: a.HTML });
      }
    },
    [fetchPage],
  );

  const showAnswer = useCallback((a: AlertPageAnswer) => {
    setModal(null);
    setMain({ ref: Main, html: a.HTML });
  }, []);

  useEffect(() => {
    if (!active) return;
    void open(main?.ref ?? Main);
    // Reload when the selection changes (or the sidebar opens).
    // The selection is read through selectionKey (a new array each render would refetch forever).
  }, [active, selectionKey]);

  return { mainHtml: main?.html ?? '', modalHtml: modal?.html ?? null, open, closeModal: () => setModal(null), showAnswer };
}
