const SEPARATORS = /([\s_.,+()[\]-]+)/;
// Put where a whole value stood: the token holding it goes too (ID778899 of the ID 778899).
const REMOVED = '\u0001';
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The ways a DICOM date (YYYYMMDD) is written in file names: 20240115, 2024-01-15, 15.01.2024, 01-15-2024. */
function datePatterns(value: string): RegExp[] {
  const date = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  if (!date) return [];
  const [, y, m, d] = date;
  const sep = '[-_. ]?';
  return [`${y}${sep}${m}${sep}${d}`, `${d}${sep}${m}${sep}${y}`, `${m}${sep}${d}${sep}${y}`].map(
    (pattern) => new RegExp(`(?<![0-9])${pattern}(?![0-9])`, 'gi'),
  );
}

/** The pieces of identifying values a name token is compared with: name parts, IDs, their digit runs. */
function identifyingParts(values: readonly string[]): Set<string> {
  const parts = new Set<string>();
  for (const value of values) {
    for (const part of value.toLowerCase().split(/[\s^,._=/\\-]+/)) {
      if (part.length >= 2) parts.add(part);
    }
  }
  return parts;
}

/** True when the token is (or, for a part of 4 characters or more, contains) one of the identifying parts. */
function identifies(token: string, parts: Set<string>): boolean {
  const lower = token.toLowerCase();
  if (parts.has(lower)) return true;
  for (const part of parts) if (part.length >= 4 && lower.includes(part)) return true;
  return false;
}

/**
 * The client's file name without any token that repeats one of the file's own identifying `values` (patient
 * name parts, IDs, accession number, dates, UIDs), the rest and the extension kept as sent; undefined when
 * no letter or digit is left beside the extension. A token goes when it equals a part of a value, or contains
 * a part of four characters or more (MRN778899 holds the patient ID 778899); a whole value and the usual
 * spellings of a date go wherever they stand.
 * @example nameWithoutIdentifiers('DOE_JOHN_MRN778899_T1.dcm', '.dcm', ['DOE^JOHN', '778899']) // 'T1.dcm'
 * @example nameWithoutIdentifiers('sub-23_T1w.dcm', '.dcm', ['DOE^JOHN']) // 'sub-23_T1w.dcm'
 */
export function nameWithoutIdentifiers(name: string, extension: string, values: readonly string[]): string | undefined {
  const extensionKept = extension && name.toLowerCase().endsWith(extension) ? name.slice(-extension.length) : '';
  let stem = name.slice(0, name.length - extensionKept.length);
  for (const value of values) {
    for (const pattern of datePatterns(value)) stem = stem.replace(pattern, REMOVED);
    if (value.length >= 3) stem = stem.replace(new RegExp(escape(value), 'gi'), REMOVED);
  }
  const parts = identifyingParts(values);
  const pieces = stem.split(SEPARATORS);
  const kept: string[] = [];
  for (let i = 0; i < pieces.length; i += 2) {
    const token = pieces[i]!;
    if (token === '' || token.includes(REMOVED) || identifies(token, parts)) continue;
    // Between kept tokens one separator, the first of the run a removed token may have left.
    if (kept.length > 0) kept.push(pieces[i - 1]?.[0] ?? '_');
    kept.push(token);
  }
  const left = kept.join('');
  if (!/[\p{L}\p{N}]/u.test(left)) return undefined;
  return `${left}${extensionKept}`;
}
