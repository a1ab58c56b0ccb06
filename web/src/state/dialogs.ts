// Which shell dialogs are open, and the latest error for the bottom banner.
import { atom } from 'jotai';

export const supportDialogOpenAtom = atom(false);
export const changePasswordOpenAtom = atom(false);

/** Latest error message shown in the bottom banner until dismissed. */
export const errorBannerAtom = atom<string | null>(null);
