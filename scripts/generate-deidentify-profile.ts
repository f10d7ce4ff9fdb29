// Writes server/imaging/dicom/deidentify-profile-table.ts from the standard itself:
// - PS3.15 Table E.1-1 (the Application Level Confidentiality Profile, as tabulated in
//   scripts/reference/dicom-confidentiality-profile.tsv, a copy of the project's reference, or the path given), and
// - PS3.3 IOD and module definitions (GDCM's Part3.xml, Debian package libgdcm-tools), for the Type of each
//   attribute whose action is a combined code (X/Z, X/D, X/Z/D, Z/D, X/Z/U*): PS3.15 E.1.1 chooses between
//   removing, emptying and dummying by whether the IOD makes the attribute Type 3, 2 or 1.
// Run: npx node scripts/generate-deidentify-profile.ts [table.tsv] [Part3.xml] [UIDs.xml]
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';

const tablePath =
  process.argv[2] ?? fileURLToPath(new URL('reference/dicom-confidentiality-profile.tsv', import.meta.url));
const part3Path = process.argv[3] ?? '/usr/share/gdcm-3.0/XML/Part3.xml';
const uidsPath = process.argv[4] ?? '/usr/share/gdcm-3.0/XML/UIDs.xml';
const outPath = new URL('../server/imaging/dicom/deidentify-profile-table.ts', import.meta.url);

// --- Table E.1-1 -----------------------------------------------------------------------------------------
const lines = readFileSync(tablePath, 'utf8').split('\n');
const header = lines.find((line) => line.startsWith('tag\t'))!.split('\t');
const rows: string[][] = [];
for (const line of lines) {
  if (line.startsWith('#') || line.startsWith('tag\t') || line.trim() === '') continue;
  const cells = line.split('\t');
  const previous = rows.at(-1);
  // A name with line breaks in it (Icon Image Sequence, "see Note 11") splits one row over several lines.
  if (previous && previous.length < 3) {
    previous[1] = `${previous[1] ?? ''} ${cells[0]}`.trim();
    previous.push(...cells.slice(1));
    continue;
  }
  rows.push(cells);
}
const options = header.slice(3);
const profile = rows.map((cells) => {
  const raw = cells[0]!.trim();
  const tag = raw.startsWith('(GGGG,EEEE)') ? 'private' : raw.replace(/[(),]/g, '').toLowerCase();
  const name = cells[1]!.trim();
  const basic = cells[2]!.trim();
  const opts: Record<string, string> = {};
  options.forEach((option, i) => {
    const value = cells[3 + i]?.trim();
    if (value) opts[option] = value;
  });
  return { tag, name, basic, options: opts };
});
const combined = profile.filter((row) => row.basic.includes('/')).map((row) => row.tag);

// --- PS3.3: the Type of each combined-code attribute at the top level of each IOD ---------------------------
const part3 = readFileSync(part3Path, 'utf8');
const attr = (text: string, key: string) => new RegExp(`${key}="([^"]*)"`).exec(text)?.[1];
const decode = (text: string) =>
  text
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"');

interface Entry {
  tag: string;
  type: string;
}
// Modules and macros, by their section (modules) or table (macros): top-level entries and included macros.
const tables = new Map<string, { entries: Entry[]; includes: string[] }>();
for (const match of part3.matchAll(/<(module|macro) ([^>]*)>([\s\S]*?)<\/\1>/g)) {
  const [, kind, head, body] = match as unknown as [string, string, string, string];
  const key = kind === 'module' ? `module ${attr(head, 'ref')}` : `macro ${attr(head, 'table')}`;
  const entries: Entry[] = [];
  const includes: string[] = [];
  for (const line of body.matchAll(/<(entry|include) ([^>]*?)\/?>/g)) {
    const [, what, fields] = line as unknown as [string, string, string];
    if (what === 'include') {
      const ref = decode(attr(fields, 'ref') ?? '');
      const table = /Table ([A-Z0-9.-]+)/.exec(ref)?.[1];
      if (!ref.startsWith('>') && table) includes.push(`macro ${table}`);
      continue;
    }
    const name = decode(attr(fields, 'name') ?? '');
    const type = attr(fields, 'type');
    if (name.startsWith('>') || !type) continue;
    entries.push({ tag: `${attr(fields, 'group')}${attr(fields, 'element')}`.toLowerCase(), type });
  }
  // The first definition of a module wins: later ones in the file are normalized (Part 4) views.
  if (!tables.has(key)) tables.set(key, { entries, includes });
}
function typesOf(key: string, out: Map<string, string>, seen = new Set<string>()) {
  if (seen.has(key)) return;
  seen.add(key);
  const table = tables.get(key);
  if (!table) return;
  for (const { tag, type } of table.entries) {
    const current = out.get(tag);
    // An attribute in several modules of one IOD takes its strictest Type there.
    if (!current || type.localeCompare(current) < 0) out.set(tag, type);
  }
  for (const include of table.includes) typesOf(include, out, seen);
}
const iods = new Map<string, Map<string, string>>();
for (const match of part3.matchAll(/<iod ([^>]*)>([\s\S]*?)<\/iod>/g)) {
  const [, head, body] = match as unknown as [string, string, string];
  const name = decode(attr(head, 'name') ?? '').replace(/ IOD Modules$/, '');
  const types = new Map<string, string>();
  for (const module of body.matchAll(/<entry [^>]*ref="([^"]*)"/g)) typesOf(`module ${module[1]}`, types);
  const kept = new Map([...types].filter(([tag]) => combined.includes(tag)));
  if (!iods.has(name)) iods.set(name, kept);
}

// SOP Class UIDs of storage classes → their IOD, by name ("CT Image Storage" → "CT Image").
const normalize = (name: string) =>
  name
    .toLowerCase()
    .replace(/ – for (presentation|processing)$/, '')
    .replace(/[-_/]/g, ' ')
    .replace(/multi frame/g, 'multiframe')
    // The SOP Class names spell out what the IOD names abbreviate.
    .replace(/^ultrasound/, 'us')
    .replace(/secondary capture/, 'sc')
    .replace(/^computed radiography/, 'cr')
    .replace(/^nuclear medicine/, 'nm')
    .replace(/^positron emission tomography/, 'pet')
    .replace(/^enhanced xa/, 'enhanced x ray angiographic')
    .replace(/^enhanced xrf/, 'enhanced x ray rf')
    .replace(/^x ray radiofluoroscopic/, 'xrf')
    .replace(/ waveform$/, '')
    .replace(/^cardiac electrophysiology/, 'basic cardiac ep')
    .replace(/\s+/g, ' ')
    .trim();
const iodByName = new Map([...iods.keys()].map((name) => [normalize(name), name]));
const sopClasses: Record<string, string> = {};
for (const match of readFileSync(uidsPath, 'utf8').matchAll(/<uid value="([^"]*)" name="([^"]*)" type="SOP Class"/g)) {
  const [, uid, name] = match as unknown as [string, string, string];
  const base = normalize(decode(name).replace(/ Storage( SOP Class)?( \(Retired\))?$/, ''));
  const iod = iodByName.get(base) ?? iodByName.get(`${base} image`) ?? iodByName.get(base.replace(/ image$/, ''));
  if (iod) sopClasses[uid!] = iod;
}

const attributeTypes: Record<string, Record<string, string>> = {};
for (const tag of combined) {
  const byIod: Record<string, string> = {};
  for (const [iod, types] of iods) {
    const type = types.get(tag);
    if (type) byIod[iod] = type.replace(/C$/, '');
  }
  attributeTypes[tag] = byIod;
}

const out = `// Generated by scripts/generate-deidentify-profile.ts from DICOM PS3.15 Table E.1-1 and PS3.3 (GDCM Part3.xml).
// Do not edit by hand: change the generator and run it again.

/** One row of PS3.15 Table E.1-1: tag ('gggg eeee' as 'ggggeeee', lower case; 'xx' for repeating groups), name, Basic Profile action and option actions. */
export interface ProfileRow {
  tag: string;
  name: string;
  basic: string;
  options: Readonly<Record<string, string>>;
}

/** Every row of PS3.15 Table E.1-1, in the table's order (${profile.length} rows). */
export const profileRows: readonly ProfileRow[] = ${JSON.stringify(profile, null, 1)};

/** For each attribute with a combined action code, its Type (1, 2 or 3; conditional Types as their base) at the top level of each PS3.3 IOD that has it. */
export const attributeTypes: Readonly<Record<string, Readonly<Record<string, string>>>> = ${JSON.stringify(attributeTypes, null, 1)};

/** The PS3.3 IOD of each storage SOP Class UID, by the IOD's name. */
export const iodBySopClass: Readonly<Record<string, string>> = ${JSON.stringify(sopClasses, null, 1)};
`;
// Formatted as the repository formats code, so running the generator again leaves no diff.
const config = await resolveConfig(fileURLToPath(outPath));
writeFileSync(outPath, await format(out, { ...config, filepath: fileURLToPath(outPath) }));
console.log(
  `${profile.length} profile rows, ${combined.length} combined codes, ${iods.size} IODs, ${Object.keys(sopClasses).length} SOP classes`,
);
