/** The date formats a user can choose in Settings, with the label the form shows for each. */
export const DATE_FORMATS = {
  iso: 'YYYY-MM-DD (2026-11-24 14:05)',
  dmy: 'DD/MM/YYYY (24/11/2026 14:05)',
  mdy: 'MM/DD/YYYY (11/24/2026 2:05 PM)',
  long: 'D Mon YYYY (24 Nov 2026, 14:05)',
} as const;

/** One of the date formats of Settings. */
export type DateFormat = keyof typeof DATE_FORMATS;

/** What every date shown in the dashboard depends on: the user's time zone and date format. */
export interface DatePreferences {
  timeZone: string;
  dateFormat: DateFormat;
}

/** Whether the text names one of the date formats. */
export function isDateFormat(value: unknown): value is DateFormat {
  return typeof value === 'string' && Object.hasOwn(DATE_FORMATS, value);
}

// Building an Intl.DateTimeFormat is far slower than using one, and a grid shows hundreds of dates.
const formatters = new Map<string, Intl.DateTimeFormat>();

function partsOf(at: Date, timeZone: string, hour12: boolean): Record<string, string> {
  const key = `${timeZone}|${hour12}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: hour12 ? 'numeric' : '2-digit',
      minute: '2-digit',
      hourCycle: hour12 ? 'h12' : 'h23',
    });
    formatters.set(key, formatter);
  }
  const parts: Record<string, string> = {};
  for (const part of formatter.formatToParts(at)) parts[part.type] = part.value;
  return parts;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A moment as the user asked to see it: in their time zone and date format, with the time unless
 * `dateOnly`. Invalid moments give an empty string rather than "Invalid Date".
 * @example formatDate(Date.UTC(2026, 10, 24, 13, 5), { timeZone: 'Europe/Paris', dateFormat: 'dmy' }) // '24/11/2026 14:05'
 */
export function formatDate(at: Date | number, preferences: DatePreferences, { dateOnly = false } = {}): string {
  const moment = typeof at === 'number' ? new Date(at) : at;
  if (Number.isNaN(moment.getTime())) return '';
  const hour12 = preferences.dateFormat === 'mdy';
  const p = partsOf(moment, preferences.timeZone, hour12);
  const day = p.day ?? '';
  const month = p.month ?? '';
  const time = hour12 ? `${p.hour}:${p.minute} ${(p.dayPeriod ?? '').toUpperCase()}` : `${p.hour}:${p.minute}`;
  switch (preferences.dateFormat) {
    case 'dmy':
      return dateOnly ? `${day}/${month}/${p.year}` : `${day}/${month}/${p.year} ${time}`;
    case 'mdy':
      return dateOnly ? `${month}/${day}/${p.year}` : `${month}/${day}/${p.year} ${time}`;
    case 'long': {
      const date = `${Number(day)} ${MONTHS[Number(month) - 1]} ${p.year}`;
      return dateOnly ? date : `${date}, ${time}`;
    }
    default:
      return dateOnly ? `${p.year}-${month}-${day}` : `${p.year}-${month}-${day} ${time}`;
  }
}
