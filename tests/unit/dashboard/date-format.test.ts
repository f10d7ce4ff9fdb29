import { describe, expect, it } from 'vitest';
import { DATE_FORMATS, formatDate, isDateFormat } from '../../../src/lib/date-format.ts';

// 24 November 2026, 13:05 UTC: winter time in Paris (UTC+1) and New York (UTC-5), Tokyo is UTC+9.
const moment = Date.UTC(2026, 10, 24, 13, 5);

describe('formatDate', () => {
  it('writes the same moment in each offered time zone', () => {
    const iso = (timeZone: string) => formatDate(moment, { timeZone, dateFormat: 'iso' });
    expect(iso('UTC')).toBe('2026-11-24 13:05');
    expect(iso('Europe/Paris')).toBe('2026-11-24 14:05');
    expect(iso('America/New_York')).toBe('2026-11-24 08:05');
    expect(iso('Asia/Tokyo')).toBe('2026-11-24 22:05');
  });

  it('moves the calendar day when the time zone crosses midnight', () => {
    const lateUtc = Date.UTC(2026, 10, 24, 23, 30);
    expect(formatDate(lateUtc, { timeZone: 'Asia/Tokyo', dateFormat: 'dmy' })).toBe('25/11/2026 08:30');
    expect(formatDate(lateUtc, { timeZone: 'UTC', dateFormat: 'dmy' }, { dateOnly: true })).toBe('24/11/2026');
  });

  it('writes each date format as its label shows', () => {
    const inParis = (dateFormat: keyof typeof DATE_FORMATS) =>
      formatDate(moment, { timeZone: 'Europe/Paris', dateFormat });
    expect(inParis('iso')).toBe('2026-11-24 14:05');
    expect(inParis('dmy')).toBe('24/11/2026 14:05');
    expect(inParis('mdy')).toBe('11/24/2026 2:05 PM');
    expect(inParis('long')).toBe('24 Nov 2026, 14:05');
    for (const [format, label] of Object.entries(DATE_FORMATS)) {
      expect(label).toContain(formatDate(moment, { timeZone: 'Europe/Paris', dateFormat: format as 'iso' }));
    }
  });

  it('writes midnight and noon on the 12-hour clock as 12 AM and 12 PM', () => {
    const prefs = { timeZone: 'UTC', dateFormat: 'mdy' } as const;
    expect(formatDate(Date.UTC(2026, 0, 1, 0, 3), prefs)).toBe('01/01/2026 12:03 AM');
    expect(formatDate(Date.UTC(2026, 0, 1, 12, 3), prefs)).toBe('01/01/2026 12:03 PM');
  });

  it('gives an empty text for an invalid moment', () => {
    expect(formatDate(Number.NaN, { timeZone: 'UTC', dateFormat: 'iso' })).toBe('');
    expect(formatDate(new Date('not a date'), { timeZone: 'UTC', dateFormat: 'long' })).toBe('');
  });

  it('knows its own formats only', () => {
    expect(isDateFormat('dmy')).toBe(true);
    expect(isDateFormat('toString')).toBe(false);
    expect(isDateFormat(undefined)).toBe(false);
  });
});
