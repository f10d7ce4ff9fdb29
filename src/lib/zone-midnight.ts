// Intl formats a moment in any IANA zone but has no inverse; these few lines give the one inverse the
// dashboard needs (the start of a calendar day in a zone), where a date library would be a large dependency.

const formatters = new Map<string, Intl.DateTimeFormat>();

/** How far the zone's wall clock is ahead of UTC at that moment, in ms. */
function offsetAt(at: number, timeZone: string): number {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  const p = Object.fromEntries(formatter.formatToParts(at).map((part) => [part.type, Number(part.value)]));
  const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return wall - Math.floor(at / 1000) * 1000;
}

/**
 * The moment a calendar day (YYYY-MM-DD) begins in an IANA time zone, `days` later when given.
 * @example startOfDayIn('2026-07-01', 'Europe/Paris').toISOString() // '2026-06-30T22:00:00.000Z'
 */
export function startOfDayIn(day: string, timeZone: string, days = 0): Date {
  const [y, m, d] = day.split('-').map(Number);
  const wall = Date.UTC(y!, m! - 1, d! + days);
  const first = wall - offsetAt(wall, timeZone);
  // Once more at the first guess: the offset may differ there when a clock change falls in between.
  return new Date(wall - offsetAt(first, timeZone));
}
