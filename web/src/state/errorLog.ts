// The local error log (spec 1 section 9): a JSON array under localStorage key Error_Log,
// sent with support tickets, capped at 1,048,576 characters by repeatedly dropping the
// older half of its entries.

export const ErrorLogKey = 'Error_Log';
export const ErrorLogMaxChars = 1_048_576;

export interface ErrorLogEntry {
  Time: string;
  Message: string;
  Path?: string;
  Status?: number;
  Url?: string;
  Body?: string;
  Stack?: string;
}

/** Drops the older half (rounded up, so one oversized entry goes too) until the text fits. */
export function capErrorLog(entries: ErrorLogEntry[], maxChars = ErrorLogMaxChars): ErrorLogEntry[] {
  let kept = entries;
  while (kept.length > 0 && JSON.stringify(kept).length > maxChars) kept = kept.slice(Math.ceil(kept.length / 2));
  return kept;
}

export function parseErrorLog(text: string | null): ErrorLogEntry[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as ErrorLogEntry[]) : [];
  } catch {
    return [];
  }
}

interface TextStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export function appendErrorLog(storage: TextStorage, entry: ErrorLogEntry, maxChars = ErrorLogMaxChars): void {
  const entries = capErrorLog([...parseErrorLog(storage.getItem(ErrorLogKey)), entry], maxChars);
  try {
    storage.setItem(ErrorLogKey, JSON.stringify(entries));
  } catch {
    // Storage full or disabled: the toast still shows; the log is a best-effort aid.
  }
}

/** The log as the JSON text a support ticket carries. */
export function errorLogJson(storage: TextStorage): string {
  return JSON.stringify(parseErrorLog(storage.getItem(ErrorLogKey)));
}
