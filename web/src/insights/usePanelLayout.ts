// The panel's visibility and width, kept per browser session (spec 3 section 3.1 keys
// wisdomPanelVisible and wisdomPanelWidth), the width held to 450..550 px. While Insights
// are off on this server (appConfig InsightsEnabled, the self-hosted default) the panel is
// never visible, whatever was stored or asked for (an import's auto-run): its invitation
// would only lead to "Insights are off on this server" (issue 41 item 6).
import { useAtomValue } from 'jotai';
import { useCallback, useState } from 'react';
import { appConfigAtom } from '../state/user';
import { clampPanelWidth, PanelMinWidth } from './logic/results';

const VisibleKey = 'wisdomPanelVisible';
const WidthKey = 'wisdomPanelWidth';

function read(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}
function write(key: string, value: string): void {
  try {
    sessionStorage.setItem(key, value);
  } catch {
    /* storage off: the choice lasts until reload */
  }
}

export function usePanelLayout() {
  const [visible, setVisibleState] = useState(() => read(VisibleKey) === 'true');
  const [width, setWidthState] = useState(() => clampPanelWidth(Number(read(WidthKey) ?? PanelMinWidth)));
  const setVisible = useCallback((v: boolean) => {
    setVisibleState(v);
    write(VisibleKey, String(v));
  }, []);
  const setWidth = useCallback((w: number) => {
    const c = clampPanelWidth(w);
    setWidthState(c);
    write(WidthKey, String(c));
  }, []);
  const enabled = useAtomValue(appConfigAtom).InsightsEnabled;
  return { visible: enabled && visible, setVisible, width, setWidth };
}
