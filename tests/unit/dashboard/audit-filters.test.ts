import { describe, expect, it } from 'vitest';
import { startOfDayIn } from '../../../src/lib/zone-midnight.ts';
import { auditQueryString } from '../../../src/stores/audit.ts';

describe('startOfDayIn', () => {
  it('finds midnight of a day in zones ahead of and behind UTC, summer and winter', () => {
    expect(startOfDayIn('2026-07-01', 'UTC').toISOString()).toBe('2026-07-01T00:00:00.000Z');
    expect(startOfDayIn('2026-07-01', 'Europe/Paris').toISOString()).toBe('2026-06-30T22:00:00.000Z');
    expect(startOfDayIn('2026-01-15', 'Europe/Paris').toISOString()).toBe('2026-01-14T23:00:00.000Z');
    expect(startOfDayIn('2026-01-15', 'America/New_York').toISOString()).toBe('2026-01-15T05:00:00.000Z');
    expect(startOfDayIn('2026-01-15', 'Asia/Tokyo').toISOString()).toBe('2026-01-14T15:00:00.000Z');
  });

  it('counts days forward across month ends and clock changes', () => {
    expect(startOfDayIn('2026-01-31', 'UTC', 1).toISOString()).toBe('2026-02-01T00:00:00.000Z');
    // Paris moves to summer time on 29 March 2026: that day starts at UTC+1, the next at UTC+2.
    expect(startOfDayIn('2026-03-29', 'Europe/Paris').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfDayIn('2026-03-29', 'Europe/Paris', 1).toISOString()).toBe('2026-03-29T22:00:00.000Z');
    // New York moves back on 1 November 2026.
    expect(startOfDayIn('2026-11-01', 'America/New_York', 1).toISOString()).toBe('2026-11-02T05:00:00.000Z');
  });
});

describe('auditQueryString', () => {
  it('sends only the filters set, the last day included up to the next midnight of the zone', () => {
    expect(auditQueryString({ actor: '', kind: '', from: '', to: '' }, 'UTC')).toBe('');
    const query = new URLSearchParams(
      auditQueryString({ actor: 'u-1', kind: 'download', from: '2026-07-01', to: '2026-07-02' }, 'Europe/Paris'),
    );
    expect(Object.fromEntries(query)).toEqual({
      actor: 'u-1',
      kind: 'download',
      from: '2026-06-30T22:00:00.000Z',
      to: '2026-07-02T22:00:00.000Z',
    });
  });
});
