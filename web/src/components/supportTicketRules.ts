// Support-ticket rules of spec 1 section 5: the e-mail pattern (self-hosted only) and the
// name and e-mail remembered under localStorage key stored-support-values.

export const StoredSupportValuesKey = 'stored-support-values';

/** A standard e-mail shape: something@domain.tld, no spaces. */
const EmailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const isValidEmail = (email: string) => EmailPattern.test(email.trim());

export interface StoredSupportValues {
  name: string;
  email: string;
}

export function readStoredSupportValues(text: string | null): StoredSupportValues {
  try {
    const value = text ? (JSON.parse(text) as Partial<StoredSupportValues>) : {};
    return { name: typeof value.name === 'string' ? value.name : '', email: typeof value.email === 'string' ? value.email : '' };
  } catch {
    return { name: '', email: '' };
  }
}

/** Submit is blocked only by a bad e-mail in self-hosted mode; name and description are free. */
export const canSubmitTicket = (email: string, selfHosted: boolean) => !selfHosted || isValidEmail(email);

/** "Successfully requested PingPlotter Cloud support." of spec 1 section 8, in this product's words. */
export const supportRequestedText = (selfHosted: boolean) => `Successfully requested ${selfHosted ? 'CloudConnect' : 'Hopwatch Cloud'} support.`;
