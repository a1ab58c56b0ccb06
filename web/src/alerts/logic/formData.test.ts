import { describe, expect, it } from 'vitest';
import { clampWidth, serializeFields, sessionAndHost } from './formData';

describe('alerts form data', () => {
  it('serializes fields, checkbox groups as lists', () => {
    expect(
      serializeFields([
        { name: 'Name', value: 'Loss' },
        { name: 'Events', type: 'checkbox', value: 'start', checked: true },
        { name: 'Events', type: 'checkbox', value: 'end', checked: false },
        { name: 'Events', type: 'checkbox', value: 'holds', checked: true },
        { name: '', value: 'x' },
        { name: 'go', type: 'submit', value: 'Finish' },
      ]),
    ).toEqual({ Name: 'Loss', Events: ['start', 'holds'] });
  });

  it('reads the target and hop of the first selected row', () => {
    expect(sessionAndHost(['7_h_3', '8_h_1'])).toEqual({ SessionID: 7, HostID: 3 });
    expect(sessionAndHost(['9'])).toEqual({ SessionID: 9, HostID: 0 });
    expect(sessionAndHost([])).toEqual({});
  });

  it('keeps the sidebar between 10 and 650 px', () => {
    expect(clampWidth(5)).toBe(10);
    expect(clampWidth(900)).toBe(650);
    expect(clampWidth(350.4)).toBe(350);
  });
});
