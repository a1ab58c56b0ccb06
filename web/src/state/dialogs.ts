// Which shell dialogs are open, and the latest error for the bottom banner.
import { atom } from 'jotai';

export const supportDialogOpenAtom = atom(false);
export const changePasswordOpenAtom = atom(false);
/**
 * The Get Help dialog (hosted; spec 1 "Get help dialog"): null when closed; agentId when asked
 * about one agent (the onboarding window), which sends /cmd/cloudconnect-agent-get-support.
 */
export const getHelpAtom = atom<{ agentId?: number } | null>(null);

/** Latest error message shown in the bottom banner until dismissed. */
export const errorBannerAtom = atom<string | null>(null);
