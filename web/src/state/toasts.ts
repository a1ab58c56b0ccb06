// Toast notifications (spec 1 sections 8 and 9): bottom-right, at most 3 at once.
import { atom } from 'jotai';
import { store } from './store';

export const ToastStackLimit = 3;
export const ToastSpacing = 50;
export const ToastOffset = 36;
export const ToastTimeoutMs = 5000;

export type ToastKind = 'error' | 'info';

export interface Toast {
  id: number;
  kind: ToastKind;
  /** "Error" or "Info". */
  title: string;
  message: string;
  /** Shows the Submit Ticket button. */
  submittable: boolean;
}

export const toastsAtom = atom<Toast[]>([]);

let nextId = 1;

/** Adds a toast, dropping the oldest beyond the stack limit. */
export function stackToast(toasts: Toast[], toast: Toast, limit = ToastStackLimit): Toast[] {
  return [...toasts, toast].slice(-limit);
}

export function showToast(kind: ToastKind, message: string, submittable = kind === 'error'): void {
  const toast: Toast = { id: nextId++, kind, title: kind === 'error' ? 'Error' : 'Info', message, submittable };
  store.set(toastsAtom, (list) => stackToast(list, toast));
}

export const showInfo = (message: string) => showToast('info', message);

export function dismissToast(id: number): void {
  store.set(toastsAtom, (list) => list.filter((t) => t.id !== id));
}
