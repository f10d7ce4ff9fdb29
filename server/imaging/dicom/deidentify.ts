import { hash } from 'node:crypto';
import type dicomParser from 'dicom-parser';
import { joinBytes } from '../../storage/byte-runs.ts';
import { parseDicom, stringValue, type DicomDataSet } from './dicom-dataset.ts';
import { actionFor, keptUidTags } from './deidentify-profile.ts';

/** How the method is recorded in (0012,0063). */
export const DEIDENTIFICATION_METHOD = 'LumenQC: DICOM PS3.15 Annex E Basic Application Level Confidentiality Profile';

const longVrs = new Set(['OB', 'OW', 'OF', 'OD', 'OL', 'OV', 'SQ', 'UC', 'UN', 'UR', 'UT', 'SV', 'UV']);
const EXPLICIT_LE = '1.2.840.10008.1.2.1';

interface Encoding {
  little: boolean;
  explicit: boolean;
}

/**
 * A replacement UID made from the original and a per-owner salt: the same owner always gets the same
 * new UID for the same original (so a series stays a series), and nobody can read the original back.
 */
export function remapUid(uid: string, salt: string): string {
  const digest = hash('sha256', `${salt}\0${uid}`, 'hex').slice(0, 32);
  return `2.25.${BigInt(`0x${digest}`).toString()}`;
}

class Writer {
  parts: Uint8Array[] = [];
  size = 0;
  readonly encoding: Encoding;
  constructor(encoding: Encoding) {
    this.encoding = encoding;
  }
  push(bytes: Uint8Array) {
    this.parts.push(bytes);
    this.size += bytes.length;
  }
  header(tag: string, vr: string | undefined, length: number) {
    const { little, explicit } = this.encoding;
    const group = parseInt(tag.slice(1, 5), 16);
    const element = parseInt(tag.slice(5), 16);
    const long = !explicit || longVrs.has(vr ?? 'UN');
    const out = new Uint8Array(explicit ? (long ? 12 : 8) : 8);
    const view = new DataView(out.buffer);
    view.setUint16(0, group, little);
    view.setUint16(2, element, little);
    if (!explicit) view.setUint32(4, length, little);
    else {
      out[4] = (vr ?? 'UN').charCodeAt(0);
      out[5] = (vr ?? 'UN').charCodeAt(1);
      if (long) view.setUint32(8, length, little);
      else view.setUint16(6, length, little);
    }
    this.push(out);
  }
  text(tag: string, vr: string, value: string) {
    const padded = value.length % 2 ? value + (vr === 'UI' ? '\0' : ' ') : value;
    this.header(tag, vr, padded.length);
    this.push(new TextEncoder().encode(padded));
  }
  result(): Uint8Array {
    return joinBytes(this.parts, this.size);
  }
}

const dummies: Record<string, string> = {
  DA: '19000101',
  TM: '000000',
  DT: '19000101000000',
  AS: '000Y',
  DS: '0',
  IS: '0',
  CS: 'ANONYMOUS',
  UI: '2.25.0',
};

// Attributes of the data set are written in tag order; `group12` (the de-identification record) goes in its place.
function writeDataSet(w: Writer, dataSet: DicomDataSet, salt: string, group12?: Uint8Array): void {
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
    const rule = actionFor(tag);
    const vr = element.vr ?? rule?.vr;
    if (rule?.action === 'X') continue;
    if (rule?.action === 'Z') {
      w.header(tag, vr, 0);
      continue;
    }
    if (rule?.action === 'D') {
      w.text(tag, vr ?? 'LO', dummies[vr ?? ''] ?? 'ANONYMOUS');
      continue;
    }
    if (element.items) {
      writeSequence(w, tag, element.items, salt);
      continue;
    }
    if ((vr === 'UI' || rule?.action === 'U') && !keptUidTags.has(tag)) {
      const uids = (stringValue(dataSet, tag) ?? '').split('\\').filter(Boolean);
      w.text(tag, 'UI', uids.map((uid) => remapUid(uid, salt)).join('\\'));
      continue;
    }
    // Kept as is: the original bytes, so numbers keep their byte order and pixel data its encoding.
    const undefinedLength = element.hadUndefinedLength === true;
    w.header(tag, vr, undefinedLength ? 0xffffffff : element.length);
    w.push(bytes.subarray(element.dataOffset, element.dataOffset + element.length));
  }
  if (pending) w.push(pending);
}

function writeSequence(w: Writer, tag: string, items: dicomParser.Element[], salt: string): void {
  const inner = new Writer(w.encoding);
  for (const item of items) {
    if (!item.dataSet) continue;
    const body = new Writer(w.encoding);
    writeDataSet(body, item.dataSet, salt);
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

function fileMeta(sopClass: string, sopInstance: string, syntax: string): Uint8Array {
  const meta = new Writer({ little: true, explicit: true });
  meta.header('x00020001', 'OB', 2);
  meta.push(Uint8Array.from([0, 1]));
  meta.text('x00020002', 'UI', sopClass);
  meta.text('x00020003', 'UI', sopInstance);
  meta.text('x00020010', 'UI', syntax);
  meta.text('x00020012', 'UI', '2.25.240331726946331145870768413451046431101');
  meta.text('x00020013', 'SH', 'LUMENQC_1');
  const body = meta.result();
  const head = new Writer({ little: true, explicit: true });
  head.push(new Uint8Array(128));
  head.push(new TextEncoder().encode('DICM'));
  head.header('x00020000', 'UL', 4);
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, body.length, true);
  head.push(length);
  head.push(body);
  return head.result();
}

/**
 * De-identifies a DICOM file by the Basic Profile: identifying attributes removed, emptied or replaced,
 * private tags removed, UIDs remapped per `salt` (the owner), Patient Identity Removed set to YES and
 * the method recorded. Pixel data and every other attribute keep their original bytes.
 */
export function deidentifyDicom(input: Uint8Array, salt: string): Uint8Array {
  return joinBytes(deidentifyDicomParts(input, salt));
}

/**
 * deidentifyDicom's file as the runs of bytes that make it up, in order, the pixel data among them as
 * a view into `input`: a caller that hashes and writes the runs one by one never copies the file whole.
 */
export function deidentifyDicomParts(input: Uint8Array, salt: string): Uint8Array[] {
  const dataSet = parseDicom(input);
  const syntax = stringValue(dataSet, 'x00020010') ?? '1.2.840.10008.1.2';
  // A deflated file has been inflated by the parser; it is written back uncompressed.
  const outSyntax = syntax === '1.2.840.10008.1.2.1.99' ? EXPLICIT_LE : syntax;
  const encoding = { little: outSyntax !== '1.2.840.10008.1.2.2', explicit: outSyntax !== '1.2.840.10008.1.2' };
  const tail = new Writer(encoding);
  tail.text('x00120062', 'CS', 'YES');
  tail.text('x00120063', 'LO', DEIDENTIFICATION_METHOD);
  const code = new Writer(encoding);
  code.text('x00080100', 'SH', '113100');
  code.text('x00080102', 'SH', 'DCM');
  code.text('x00080104', 'LO', 'Basic Application Confidentiality Profile');
  const item = code.result();
  const sequence = new Uint8Array(8 + item.length);
  const view = new DataView(sequence.buffer);
  view.setUint16(0, 0xfffe, encoding.little);
  view.setUint16(2, 0xe000, encoding.little);
  view.setUint32(4, item.length, encoding.little);
  sequence.set(item, 8);
  tail.header('x00120064', 'SQ', sequence.length);
  tail.push(sequence);
  const body = new Writer(encoding);
  writeDataSet(body, dataSet, salt, tail.result());
  const sopInstance = stringValue(dataSet, 'x00080018');
  const meta = fileMeta(
    stringValue(dataSet, 'x00080016') ?? stringValue(dataSet, 'x00020002') ?? '1.2.840.10008.5.1.4.1.1.7',
    sopInstance ? remapUid(sopInstance, salt) : remapUid('unknown', salt),
    outSyntax,
  );
  return [meta, ...body.parts];
}
