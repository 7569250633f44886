/**
 * The span of head office's sales cards: the last 7 days as whole days, from midnight six days ago
 * (sent without an offset, which HQ reads in its own time zone, POS_HQ_TIMEZONE) to now. A span of
 * 7 × 24 hours back from now began in the middle of a day, so "by day" showed an eighth, oldest row
 * holding only that day's later hours.
 */
export function lastSevenDays(now: Date): { from: string; to: string } {
  const first = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 6);
  const pad = (n: number) => String(n).padStart(2, '0');
  return { from: `${first.getFullYear()}-${pad(first.getMonth() + 1)}-${pad(first.getDate())}T00:00:00`, to: now.toISOString() };
}
