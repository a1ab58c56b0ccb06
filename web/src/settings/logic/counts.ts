// Counts as the settings pages say them (issue 41 item 5): "1 change pending" (the plural
// rule), and how long the free space lasts in whole days, or "more than 10 years" (a
// quiet install's rate gives six-digit day counts that read as a bug).

export const pendingChangesText = (n: number) => `${n} ${n === 1 ? 'change' : 'changes'} pending`;

/** Beyond this the exact figure means nothing (the rate will change long before). */
const TenYearsInDays = 3652;

export function freeSpaceDaysText(days: number | null): string {
  if (days === null) return 'n/a (nothing stored in the last 24 hours)';
  if (days > TenYearsInDays) return 'more than 10 years';
  if (days < 0.5) return 'less than a day';
  const whole = Math.round(days);
  return `${whole.toLocaleString('en-US')} ${whole === 1 ? 'day' : 'days'}`;
}
