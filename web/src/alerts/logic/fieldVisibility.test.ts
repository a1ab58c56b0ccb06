import { describe, expect, it } from 'vitest';
import { confirmationOf, isShown } from './fieldVisibility';
import { serializeFields } from './formData';

describe('the alert form shows only the chosen kind\'s fields', () => {
  it('shows a field group while its switch has one of its values', () => {
    expect(isShown({ field: 'Kind', values: 'latency jitter' }, { Kind: 'latency', ActionKind: 'email' })).toBe(true);
    expect(isShown({ field: 'Kind', values: 'latency jitter' }, { Kind: 'loss', ActionKind: 'email' })).toBe(false);
    expect(isShown({ field: 'ActionKind', values: 'comment log' }, { Kind: 'loss', ActionKind: 'log' })).toBe(true);
    // Whole words only: "loss" is not "lossy".
    expect(isShown({ field: 'Kind', values: 'lossy' }, { Kind: 'loss' })).toBe(false);
    // A group without a switch in the form is shown (nothing says otherwise).
    expect(isShown({ field: 'Other', values: 'x' }, { Kind: 'loss' })).toBe(true);
  });

  it('does not send the fields of the kinds not chosen (disabled)', () => {
    expect(
      serializeFields([
        { name: 'Kind', value: 'loss' },
        { name: 'Lost', value: '2' },
        { name: 'ThresholdMs', value: '100', disabled: true },
      ]),
    ).toEqual({ Kind: 'loss', Lost: '2' });
  });
});

describe('the console\'s own confirmation', () => {
  it('reads the question, title and button label from the server\'s attributes', () => {
    expect(confirmationOf({ confirm: 'Delete the alert "A"?', confirmTitle: 'Delete alert', confirmLabel: 'Delete' })).toEqual({ title: 'Delete alert', message: 'Delete the alert "A"?', confirmLabel: 'Delete' });
    expect(confirmationOf({ confirm: 'Go on?' })).toEqual({ title: 'Confirm', message: 'Go on?', confirmLabel: 'OK' });
    expect(confirmationOf({})).toBeUndefined();
  });
});
