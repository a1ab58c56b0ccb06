import { describe, expect, it } from 'vitest';
import { canSubmitTicket, isValidEmail, readStoredSupportValues, supportRequestedText } from './supportTicketRules';

describe('support ticket rules', () => {
  it('checks the e-mail pattern in self-hosted mode only', () => {
    expect(isValidEmail('ops@example.org')).toBe(true);
    expect(isValidEmail('ops@example')).toBe(false);
    expect(isValidEmail('ops example@x.org')).toBe(false);
    expect(canSubmitTicket('bad', true)).toBe(false);
    expect(canSubmitTicket('bad', false)).toBe(true);
    expect(canSubmitTicket('a@b.io', true)).toBe(true);
  });

  it('reads remembered name and e-mail, tolerating junk', () => {
    expect(readStoredSupportValues('{"name":"Ann","email":"a@b.io"}')).toEqual({ name: 'Ann', email: 'a@b.io' });
    expect(readStoredSupportValues('junk')).toEqual({ name: '', email: '' });
    expect(readStoredSupportValues(null)).toEqual({ name: '', email: '' });
  });

  it('thanks for a support request in the words of the mode (spec 1 section 8)', () => {
    expect(supportRequestedText(false)).toBe('Successfully requested Hopwatch Cloud support.');
    expect(supportRequestedText(true)).toBe('Successfully requested CloudConnect support.');
  });
});
