import dcmjs from 'dcmjs';
import { attributeTypes, iodBySopClass, profileRows, type ProfileRow } from './deidentify-profile-table.ts';

/**
 * What to do with one attribute, after the combined codes of PS3.15 Table E.1-1 are resolved for the IOD:
 * X remove, Z empty, D dummy value, U remap UIDs, K keep, C clean (a dummy value for text, the items cleaned
 * for a sequence), U* keep the sequence and remap the instance UIDs it holds.
 */
export type ProfileAction = 'X' | 'Z' | 'D' | 'U' | 'K' | 'C' | 'U*';

/** Option columns of Table E.1-1, as named in the table's header. */
export type ProfileOption =
  | 'rtnSafePrivOpt'
  | 'rtnUIDsOpt'
  | 'rtnDevIdOpt'
  | 'rtnInstIdOpt'
  | 'rtnPatCharsOpt'
  | 'rtnLongFullDatesOpt'
  | 'rtnLongModifDatesOpt'
  | 'cleanDescOpt'
  | 'cleanStructContOpt'
  | 'cleanGraphOpt';

/** Table rows by tag key ('x00100010' as dicom-parser names tags), and the repeating-group rows by element. */
const rowsByTag = new Map<string, ProfileRow>();
const repeatingRows: ProfileRow[] = [];
let privateRow: ProfileRow | undefined;
for (const row of profileRows) {
  if (row.tag === 'private') privateRow = row;
  else if (row.tag.includes('x')) repeatingRows.push(row);
  else rowsByTag.set(`x${row.tag}`, row);
}

/** The table's row for a tag: its own, the 50xx/60xx row it falls in, or the private-attribute row. */
export function profileRowFor(tag: string): ProfileRow | undefined {
  const listed = rowsByTag.get(tag);
  if (listed) return listed;
  if (parseInt(tag.slice(1, 5), 16) % 2 === 1) return privateRow;
  return repeatingRows.find((row) => [...row.tag].every((digit, i) => digit === 'x' || digit === tag[i + 1]));
}

/** The PS3.3 IOD a SOP Class UID belongs to, when the standard's tables name it. */
export function iodOf(sopClassUid: string | undefined): string | undefined {
  return sopClassUid ? iodBySopClass[sopClassUid] : undefined;
}

/**
 * The action for a tag under the Basic Profile and the chosen options, or undefined when the table does not
 * list it. Combined codes are chosen as PS3.15 E.1.1 says: by the attribute's Type in the IOD (`iod`), Type 1
 * giving D (or U* for a sequence of references), Type 2 giving Z and Type 3 (or absent from the IOD) giving
 * X. Where the Type is not known (an unknown IOD, or an attribute inside a sequence, whose Type the IOD
 * tables here do not give), the attribute is kept present with a harmless value, so the file stays valid.
 */
export function actionFor(
  tag: string,
  iod: string | undefined,
  nested: boolean,
  options: readonly ProfileOption[] = [],
): ProfileAction | undefined {
  const row = profileRowFor(tag);
  if (!row) return undefined;
  for (const option of options) {
    const action = row.options[option];
    if (action) return action as ProfileAction;
  }
  const code = row.basic;
  if (!code.includes('/')) return code as ProfileAction;
  const known = iod !== undefined && !nested;
  const type = known ? attributeTypes[tag.slice(1)]?.[iod] : undefined;
  const choices = code.split('/');
  const strongest = choices.includes('U*') ? 'U*' : choices.includes('D') ? 'D' : 'Z';
  if (!known) return strongest;
  if (type === '1') return strongest;
  if (type === '2') return choices.includes('Z') ? 'Z' : strongest;
  if (type === '3') return 'X';
  // Not in this IOD as the tables here know it (they are of an older edition than today's standard): kept
  // present and empty where allowed, so a newer edition's Type 2 stays satisfied; a sequence keeps its
  // items, cleaned, where allowed (an empty sequence breaks a Type 3 one), or goes.
  if (!row.name.endsWith('Sequence')) return choices.includes('Z') ? 'Z' : strongest;
  return choices.includes('U*') ? 'U*' : choices.includes('D') ? 'D' : 'X';
}

/**
 * Type 1C attributes required only while another is present, and "not present otherwise" (PS3.3): when the
 * profile removes the other, these go too, or the file would break its IOD. Clinical Trial Protocol Ethics
 * Committee Name (D) is required only with the Approval Number (X).
 */
const requiredOnlyWith = new Map([['x00120081', 'x00120082']]);

/** True when `tag` must go because the attribute that makes it required is removed (or was never there). */
export function loosesItsCondition(
  tag: string,
  present: (tag: string) => boolean,
  iod: string | undefined,
  nested: boolean,
): boolean {
  const condition = requiredOnlyWith.get(tag);
  return condition !== undefined && (!present(condition) || actionFor(condition, iod, nested) === 'X');
}

/** UIDs that name kinds of things (SOP classes, coding schemes, templates), not patients or studies: kept as they are. */
export const keptUidTags = new Set([
  'x00080016',
  'x00081150',
  'x0008010c',
  'x00080117',
  'x00080118',
  'x00020002',
  'x00020010',
  'x00081190',
  'x0040e001',
  'x00080062',
  'x0008001a',
  'x00041510',
  'x00041512',
]);

const dictionary = dcmjs.data.DicomMetaDictionary.dictionary;

/** The data dictionary's entry for a tag ('x00100010'), from dcmjs' copy of PS3.6. */
function dictionaryEntry(tag: string) {
  const key = `(${tag.slice(1, 5)},${tag.slice(5)})`.toUpperCase();
  const entry = dictionary[key];
  // dcmjs answers some unknown keys with a near match; only the exact tag counts.
  return entry && entry.tag.toUpperCase() === key ? entry : undefined;
}

/** The data dictionary's VR for a tag, for implicit-VR files (the first when PS3.6 allows several). */
export function dictionaryVr(tag: string): string | undefined {
  if (tag === 'xfffee000' || tag === 'xfffee00d' || tag === 'xfffee0dd') return undefined;
  const vr = dictionaryEntry(tag)?.vr;
  // Multi-VR entries ("US or SS", dcmjs' "ox" for OB or OW) give no single VR: left to the parser.
  return vr && /^[A-Z]{2}/.test(vr) ? vr.slice(0, 2) : undefined;
}

/** A readable name for a tag: the table's, then the dictionary's. */
export function attributeName(tag: string): string {
  const row = rowsByTag.get(tag);
  if (row) return row.name.replace(/ \(see Note \d+\)$/, '');
  if (parseInt(tag.slice(1, 5), 16) % 2 === 1) return 'Private attribute';
  return dictionaryEntry(tag)?.name.replace(/([a-z])([A-Z])/g, '$1 $2') ?? 'Unknown attribute';
}
