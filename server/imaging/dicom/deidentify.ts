import { hash } from 'node:crypto';
import type dicomParser from 'dicom-parser';
import { parseDicom, stringValue, type DicomDataSet } from './dicom-dataset.ts';
import {
  actionFor,
  attributeName,
  dictionaryVr,
  iodOf,
  keptUidTags,
  loosesItsCondition,
  type ProfileAction,
} from './deidentify-profile.ts';
import { checkBurnedInText, type BurnedInResult } from './burned-in-text.ts';
import { withNativePixelData } from './pixel-rewrite.ts';
import { fileMeta, Writer, type Encoding } from './dicom-writer.ts';
import { emptyReport, ReportBuilder, type DeidentificationReport } from './deidentify-report.ts';

/**
 * How the method is recorded in De-identification Method (0012,0063): an LO, so at most 64 characters; the
 * profile is also coded in De-identification Method Code Sequence (0012,0064).
 */
export const DEIDENTIFICATION_METHOD = 'DICOM PS3.15 E.1-1 Basic Profile (LumenQC)';

const textVrs = new Set([
  'AE',
  'AS',
  'CS',
  'DA',
  'DS',
  'DT',
  'IS',
  'LO',
  'LT',
  'PN',
  'SH',
  'ST',
  'TM',
  'UC',
  'UR',
  'UT',
]);
const EXPLICIT_LE = '1.2.840.10008.1.2.1';

/**
 * A replacement UID made from the original and a per-workspace secret salt: one workspace always gets the
 * same new UID for the same original (so a series stays a series whoever sends its slices), and nobody can
 * read the original back.
 */
export function remapUid(uid: string, salt: string): string {
  const digest = hash('sha256', `${salt}\0${uid}`, 'hex').slice(0, 32);
  return `2.25.${BigInt(`0x${digest}`).toString()}`;
}

/** Dummy values by VR (PS3.15 E.1.1 "D": a non-zero-length value consistent with the VR). */
const dummies: Record<string, string> = {
  AE: 'ANONYMOUS',
  AS: '000D',
  CS: 'ANONYMOUS',
  DA: '19000101',
  DS: '0',
  DT: '19000101000000',
  IS: '0',
  LO: 'ANONYMOUS',
  LT: 'ANONYMOUS',
  PN: 'ANONYMOUS',
  SH: 'ANONYMOUS',
  ST: 'ANONYMOUS',
  TM: '000000',
  UC: 'ANONYMOUS',
  UR: 'urn:uuid:00000000-0000-0000-0000-000000000000',
  UT: 'ANONYMOUS',
};

/**
 * Inside a sequence replaced by a dummy (D) or cleaned (C), these keep their values: coded strings (CS) and
 * numbers measure or classify things, and binary values hold no names. Codes (value, designator and meaning)
 * get dummies like any other text: in Institution Code Sequence or Person Identification Code Sequence the
 * code is the institution's or the person's own ("St Mary's Hospital", "Dr Gregory House").
 */
function keptInDummy(vr: string | undefined): boolean {
  return vr === 'CS' || vr === 'DS' || vr === 'IS' || !textVrs.has(vr ?? 'UN');
}

interface Context {
  salt: string;
  iod: string | undefined;
  report: ReportBuilder;
  /** Remapped UIDs, by original, so a UID met twice is counted once. */
  uids: Map<string, string>;
  /** Burned-in text found in the pixels, and the pixel data with it blanked. */
  burnedIn: BurnedInResult;
}

function remap(context: Context, uid: string): string {
  let mapped = context.uids.get(uid);
  if (!mapped) {
    mapped = remapUid(uid, context.salt);
    context.uids.set(uid, mapped);
  }
  return mapped;
}

/** True for UIDs the standard itself defines (SOP classes, transfer syntaxes, coding schemes, frames of reference it names). */
const isStandardUid = (uid: string) => uid.startsWith('1.2.840.10008.');

/** Dummy bytes for a binary value: zeros of the same length, so the VM and the VR's unit stay right. */
function zeros(length: number): Uint8Array {
  return new Uint8Array(length);
}

/**
 * Writes the attributes of `dataSet` in tag order by the profile. `nested` is true inside a sequence (where the
 * Type of an attribute is not the IOD's), `dummy` inside a sequence whose contents are replaced by dummies.
 */
function writeDataSet(
  w: Writer,
  dataSet: DicomDataSet,
  context: Context,
  nested: boolean,
  dummy: boolean,
  group12?: Uint8Array,
): void {
  const bytes = dataSet.byteArray;
  let pending = group12;
  for (const tag of Object.keys(dataSet.elements).sort()) {
    const element = dataSet.elements[tag]!;
    // File meta is rewritten from scratch; group lengths would be stale after edits.
    if (tag.startsWith('x0002') || tag.endsWith('0000') || (group12 && /^x001200(62|63|64)$/.test(tag))) continue;
    if (pending && tag > 'x00120064') {
      w.push(pending);
      pending = undefined;
    }
    const group = parseInt(tag.slice(1, 5), 16);
    const vr = element.vr ?? dictionaryVr(tag) ?? (element.items ? 'SQ' : undefined);
    if (group % 2 === 1) {
      context.report.privateDropped();
      continue;
    }
    // Overlays (60xx) and curves (50xx) go whole: their data is pixels or text drawn over the image.
    if ((group & 0xff00) === 0x6000 || (group & 0xff00) === 0x5000) {
      context.report.record('removed', tag);
      continue;
    }
    let action: ProfileAction | undefined = actionFor(tag, context.iod, nested);
    if (loosesItsCondition(tag, (other) => other in dataSet.elements, context.iod, nested)) action = 'X';
    if (action === undefined && vr === 'UI' && !keptUidTags.has(tag)) action = 'U';
    if (action === undefined && dummy && !keptInDummy(vr) && !element.items) action = 'D';
    if (action === 'C') action = element.items || vr === 'SQ' ? 'C' : 'D';
    switch (action) {
      case 'X':
        context.report.record('removed', tag);
        continue;
      case 'Z':
        context.report.record('emptied', tag);
        w.header(tag, vr, 0);
        continue;
      case 'D':
        if (element.items || vr === 'SQ') {
          // A sequence's dummy is its items with every value in them replaced; its structure stays valid.
          context.report.record('replaced', tag);
          writeSequence(w, tag, element.items ?? [], context, true);
          continue;
        }
        context.report.record('replaced', tag);
        if (vr === 'UI') writeUids(w, tag, dataSet, context);
        else if (vr && dummies[vr]) w.text(tag, vr, dummies[vr]);
        else {
          w.header(tag, vr, element.length);
          w.push(zeros(element.length));
        }
        continue;
      case 'C':
        context.report.record('replaced', tag);
        writeSequence(w, tag, element.items ?? [], context, true);
        continue;
      case 'U':
        if (vr === 'UI' || vr === undefined) {
          writeUids(w, tag, dataSet, context);
          continue;
        }
        break;
      case 'U*':
      case 'K':
      case undefined:
        break;
    }
    if (element.items) {
      writeSequence(w, tag, element.items, context, dummy);
      continue;
    }
    // Native pixel data blanked where text was found: the same samples in the same layout, so the same length
    // (plus the pad byte an odd count needs). Decoded compressed data is written afterwards (see below).
    const blanked = context.burnedIn.blanked;
    if (!nested && tag === 'x7fe00010' && blanked && !blanked.decoded) {
      const padded = blanked.bytes.length % 2 ? blanked.bytes.length + 1 : blanked.bytes.length;
      w.header(tag, vr, padded);
      w.push(blanked.bytes);
      if (padded > blanked.bytes.length) w.push(new Uint8Array(1));
      continue;
    }
    // Burned In Annotation becomes NO only once the text found in the pixels is blanked.
    if (!nested && tag === 'x00280301' && context.burnedIn.status === 'blanked') {
      w.text(tag, 'CS', 'NO');
      continue;
    }
    // Kept as is: the original bytes, so numbers keep their byte order and pixel data its encoding.
    const undefinedLength = element.hadUndefinedLength === true;
    w.header(tag, vr, undefinedLength ? 0xffffffff : element.length);
    w.push(bytes.subarray(element.dataOffset, element.dataOffset + element.length));
  }
  if (pending) w.push(pending);
}

function writeUids(w: Writer, tag: string, dataSet: DicomDataSet, context: Context): void {
  const uids = (dataSet.string(tag) ?? '')
    .replace(/\0/g, '')
    .split('\\')
    .map((uid) => uid.trim());
  const out = uids.map((uid) => (uid === '' || isStandardUid(uid) ? uid : remap(context, uid)));
  if (out.some((uid, i) => uid !== uids[i])) context.report.record('uid', tag);
  w.text(tag, 'UI', out.join('\\'));
}

function writeSequence(w: Writer, tag: string, items: dicomParser.Element[], context: Context, dummy: boolean): void {
  const inner = new Writer(w.encoding);
  for (const item of items) {
    if (!item.dataSet) continue;
    const body = new Writer(w.encoding);
    writeDataSet(body, item.dataSet, context, true, dummy);
    const encoded = body.result();
    const head = new Uint8Array(8);
    const view = new DataView(head.buffer);
    view.setUint16(0, 0xfffe, w.encoding.little);
    view.setUint16(2, 0xe000, w.encoding.little);
    view.setUint32(4, encoded.length, w.encoding.little);
    inner.push(head);
    inner.push(encoded);
  }
  const content = inner.result();
  w.header(tag, 'SQ', content.length);
  w.push(content);
}

/**
 * The de-identification record: Patient Identity Removed, the method, and its codes (PS3.16 CID 7050): DCM 113100
 * for the Basic Profile, and DCM 113101 (Clean Pixel Data Option) when burned-in text was blanked.
 */
function methodAttributes(encoding: Encoding, cleanedPixels: boolean): Uint8Array {
  const tail = new Writer(encoding);
  tail.text('x00120062', 'CS', 'YES');
  tail.text('x00120063', 'LO', DEIDENTIFICATION_METHOD);
  const codes: [string, string][] = [['113100', 'Basic Application Confidentiality Profile']];
  if (cleanedPixels) codes.push(['113101', 'Clean Pixel Data Option']);
  const sequence = new Writer(encoding);
  for (const [value, meaning] of codes) {
    const code = new Writer(encoding);
    code.text('x00080100', 'SH', value);
    code.text('x00080102', 'SH', 'DCM');
    code.text('x00080104', 'LO', meaning);
    const item = code.result();
    const head = new Uint8Array(8);
    const view = new DataView(head.buffer);
    view.setUint16(0, 0xfffe, encoding.little);
    view.setUint16(2, 0xe000, encoding.little);
    view.setUint32(4, item.length, encoding.little);
    sequence.push(head);
    sequence.push(item);
  }
  tail.header('x00120064', 'SQ', sequence.size);
  for (const part of sequence.parts) tail.push(part);
  return tail.result();
}

/** A value the profile keeps as it is (so it is in the de-identified file too), else undefined. */
function keptValue(dataSet: DicomDataSet, tag: string, context: Context): string | undefined {
  const action = actionFor(tag, context.iod, false);
  if (action !== undefined && action !== 'K') return undefined;
  // Only letters, digits, spaces and a few marks: the value becomes part of a file name.
  return stringValue(dataSet, tag)
    ?.replace(/[^A-Za-z0-9 ._-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 64);
}

/**
 * The visible name of a de-identified file, from its de-identified values only: modality, series description
 * (when the profile keeps it, which the Basic Profile does not), series and instance numbers, and the first
 * eight hex digits of the SHA-256 of its remapped SOP Instance UID, so files of one series get distinct names
 * that say where they belong, e.g. "CT_S0002_I0007_1f3a9c2e.dcm".
 */
function deidentifiedName(dataSet: DicomDataSet, context: Context, sopInstance: string): string {
  const modality = keptValue(dataSet, 'x00080060', context) || 'DICOM';
  const series = keptValue(dataSet, 'x0008103e', context);
  const number = (tag: string, prefix: string) => {
    const value = Number.parseInt(keptValue(dataSet, tag, context) ?? '', 10);
    return Number.isFinite(value) && value >= 0 ? `${prefix}${String(value).padStart(4, '0')}` : undefined;
  };
  const short = hash('sha256', sopInstance, 'hex').slice(0, 8);
  const parts = [modality, series, number('x00200011', 'S'), number('x00200013', 'I'), short];
  return `${parts.filter(Boolean).join('_').replace(/ /g, '-')}.dcm`;
}

/**
 * De-identifies a DICOM file by the Basic Profile: identifying attributes removed, emptied or replaced,
 * private tags removed, UIDs remapped per `salt` (the workspace's), Patient Identity Removed set to YES and
 * the method recorded. Pixel data and every other attribute keep their original bytes.
 */
export async function deidentifyDicom(input: Uint8Array, salt: string): Promise<Uint8Array> {
  return Buffer.concat(await deidentifyDicomParts(input, salt));
}

/** A de-identified file as runs of bytes (see deidentifyDicomParts) and what was done to it. */
export interface DeidentifiedDicom {
  parts: Uint8Array[];
  report: DeidentificationReport;
}

/**
 * deidentifyDicom's file as the runs of bytes that make it up, in order, the pixel data among them as
 * a view into `input`: a caller that hashes and writes the runs one by one never copies the file whole.
 */
export async function deidentifyDicomParts(input: Uint8Array, salt: string): Promise<Uint8Array[]> {
  return (await deidentifyDicomWithReport(input, salt)).parts;
}

/**
 * deidentifyDicomParts, with the report of what was removed, emptied, replaced and remapped, and of the
 * burned-in text found and blanked in the pixels (see burned-in-text.ts).
 */
export async function deidentifyDicomWithReport(input: Uint8Array, salt: string): Promise<DeidentifiedDicom> {
  // Implicit-VR files carry no VRs: the data dictionary's tell sequences and UIDs apart.
  const dataSet = parseDicom(input, dictionaryVr);
  const syntax = stringValue(dataSet, 'x00020010') ?? '1.2.840.10008.1.2';
  // A deflated file has been inflated by the parser; it is written back uncompressed.
  const outSyntax = syntax === '1.2.840.10008.1.2.1.99' ? EXPLICIT_LE : syntax;
  const encoding = { little: outSyntax !== '1.2.840.10008.1.2.2', explicit: outSyntax !== '1.2.840.10008.1.2' };
  const sopClass = stringValue(dataSet, 'x00080016') ?? stringValue(dataSet, 'x00020002');
  const report = new ReportBuilder(iodOf(sopClass), attributeName);
  const burnedIn = await checkBurnedInText(dataSet, outSyntax);
  const context: Context = { salt, iod: iodOf(sopClass), report, uids: new Map(), burnedIn };
  const body = new Writer(encoding);
  writeDataSet(body, dataSet, context, false, false, methodAttributes(encoding, burnedIn.status === 'blanked'));
  const sopInstance = stringValue(dataSet, 'x00080018');
  const newInstance = sopInstance ? remap(context, sopInstance) : remapUid('unknown', salt);
  const meta = fileMeta(sopClass ?? '1.2.840.10008.5.1.4.1.1.7', newInstance, outSyntax);
  const annotation = stringValue(dataSet, 'x00280301')?.toUpperCase();
  let parts = [meta, ...body.parts];
  // Compressed pixel data with text blanked: the de-identified file, its pixel data replaced by the decoded and
  // blanked samples, written uncompressed (see pixel-rewrite.ts for why not compressed again).
  if (burnedIn.blanked?.decoded) parts = [withNativePixelData(parseDicom(Buffer.concat(parts)), burnedIn.blanked)];
  return {
    parts,
    report: {
      ...report.result(context.uids.size, deidentifiedName(dataSet, context, newInstance)),
      burnedInText: burnedIn.status,
      ...(burnedIn.reason ? { burnedInReason: burnedIn.reason } : {}),
      burnedInRegions: burnedIn.regions,
      burnedInAnnotation: burnedIn.status === 'blanked' && annotation ? 'NO' : (annotation ?? null),
      pixelDataDecompressed: burnedIn.blanked?.decoded ?? false,
    },
  };
}

export { emptyReport, type DeidentificationReport };
