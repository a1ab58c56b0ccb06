// Sidebar shown or collapsed, persisted under summary_sidebar_visible (default true).
import { atomWithStorage } from 'jotai/utils';

export const sidebarVisibleAtom = atomWithStorage('summary_sidebar_visible', true, undefined, { getOnInit: true });
