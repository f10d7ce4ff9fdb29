import { stringify } from 'csv-stringify/sync';
import type { AuditItem } from '../../../contract/audit.ts';

/** The export's columns, in order. */
export const AUDIT_CSV_HEAD = ['time_utc', 'actor_name', 'actor_email', 'action', 'description', 'ip', 'detail'];

/**
 * A cell a spreadsheet would not run as a formula: text starting with = + - @ (or a tab or carriage
 * return, which some spreadsheets skip before one) gets a leading apostrophe (OWASP's CSV injection advice).
 */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** A workspace's audit events as CSV (RFC 4180: CRLF lines, quotes doubled), header first. */
export function auditCsv(items: readonly AuditItem[]): string {
  const rows = items.map((item) => [
    item.at,
    item.actor?.name ?? '',
    item.actor?.email ?? '',
    item.action,
    item.label,
    item.ip ?? '',
    Object.keys(item.detail).length ? JSON.stringify(item.detail) : '',
  ]);
  return stringify([AUDIT_CSV_HEAD, ...rows], {
    record_delimiter: 'windows',
    cast: { string: neutraliseFormula },
  });
}

/**
 * The export's file name, dated.
 * @example auditCsvFileName(new Date('2026-11-24T12:00:00Z')) // 'lumenqc-audit-2026-11-24.csv'
 */
export function auditCsvFileName(now: Date): string {
  return `lumenqc-audit-${now.toISOString().slice(0, 10)}.csv`;
}
