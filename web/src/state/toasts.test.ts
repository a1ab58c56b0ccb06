import { describe, expect, it } from 'vitest';
import { ToastStackLimit, stackToast, type Toast } from './toasts';

const toast = (id: number): Toast => ({ id, kind: 'error', title: 'Error', message: `m${id}`, submittable: true });

describe('toast stack', () => {
  it('keeps at most three toasts, dropping the oldest', () => {
    expect(ToastStackLimit).toBe(3);
    let list: Toast[] = [];
    for (let i = 1; i <= 5; i++) list = stackToast(list, toast(i));
    expect(list.map((t) => t.id)).toEqual([3, 4, 5]);
  });
});
