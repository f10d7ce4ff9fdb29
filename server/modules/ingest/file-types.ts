import { Transform, type TransformCallback } from 'node:stream';
import { looksLikeDicom } from '../../imaging/dicom/part10.ts';
import { unsupportedType } from '../../http-errors.ts';

/** What the product knows about one supported extension. */
export interface FileType {
  /** Lower-case, with the leading dot. */
  extension: string;
  /** Normalised format name (SPEC §1). */
  format: 'jpg' | 'png' | 'tiff' | 'bmp' | 'gif' | 'webp' | 'nii' | 'nrrd' | 'dcm';
  contentType: string;
  /** Whether a browser can show it in an <img> (SPEC §5 preview extensions). */
  previewable: boolean;
  /** True when the first bytes are what this type must start with. */
  matches(head: Buffer): boolean;
  /** The refusal when the content does not match; by default, that it does not match the extension. */
  mismatchDetail?: string;
}

const startsWith = (head: Buffer, ...bytes: number[]) => bytes.every((b, i) => head[i] === b);
const ascii = (head: Buffer, offset: number, text: string) =>
  head.subarray(offset, offset + text.length).toString('latin1') === text;

const jpeg = (h: Buffer) => startsWith(h, 0xff, 0xd8, 0xff);
const tiff = (h: Buffer) => startsWith(h, 0x49, 0x49, 0x2a, 0x00) || startsWith(h, 0x4d, 0x4d, 0x00, 0x2a);
// NIfTI-1 and NIfTI-2 keep their magic at byte 344 ("n+1\0"/"ni1\0") or 4 ("n+2\0"/"ni2\0").
const nifti = (h: Buffer) =>
  ['n+1\0', 'ni1\0'].some((m) => ascii(h, 344, m)) || ['n+2\0', 'ni2\0'].some((m) => ascii(h, 4, m));
// Part-10 DICOM has "DICM" after a 128-byte preamble; bare data sets start with a group 0002, 0004 or 0008 tag.
const dicom = (h: Buffer) => looksLikeDicom(h);

const types: FileType[] = [
  { extension: '.dcm', format: 'dcm', contentType: 'application/dicom', previewable: false, matches: dicom },
  { extension: '.nii', format: 'nii', contentType: 'application/octet-stream', previewable: false, matches: nifti },
  {
    extension: '.nii.gz',
    format: 'nii',
    contentType: 'application/gzip',
    previewable: false,
    matches: (h) => startsWith(h, 0x1f, 0x8b),
  },
  { extension: '.jpg', format: 'jpg', contentType: 'image/jpeg', previewable: true, matches: jpeg },
  { extension: '.jpeg', format: 'jpg', contentType: 'image/jpeg', previewable: true, matches: jpeg },
  {
    extension: '.png',
    format: 'png',
    contentType: 'image/png',
    previewable: true,
    matches: (h) => startsWith(h, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
  },
  { extension: '.tif', format: 'tiff', contentType: 'image/tiff', previewable: true, matches: tiff },
  { extension: '.tiff', format: 'tiff', contentType: 'image/tiff', previewable: true, matches: tiff },
  {
    extension: '.nrrd',
    format: 'nrrd',
    contentType: 'application/octet-stream',
    previewable: false,
    matches: (h) => ascii(h, 0, 'NRRD000'),
  },
  { extension: '.bmp', format: 'bmp', contentType: 'image/bmp', previewable: true, matches: (h) => ascii(h, 0, 'BM') },
  {
    extension: '.gif',
    format: 'gif',
    contentType: 'image/gif',
    previewable: true,
    matches: (h) => ascii(h, 0, 'GIF87a') || ascii(h, 0, 'GIF89a'),
  },
  {
    extension: '.webp',
    format: 'webp',
    contentType: 'image/webp',
    previewable: true,
    matches: (h) => ascii(h, 0, 'RIFF') && ascii(h, 8, 'WEBP'),
  },
];

/** Every extension the product accepts, for messages and the file picker. */
export const SUPPORTED_EXTENSIONS: readonly string[] = types.map((t) => t.extension);

/** The refusal of a file whose type the product does not take. */
export const UNSUPPORTED_TYPE_DETAIL = `This file type is not supported. Supported types: ${SUPPORTED_EXTENSIONS.join(', ')}`;

/**
 * A file named without an extension, or with digits after its last dot (scanners write IM0001, DICOMDIR
 * and 1.2.840.113619.2.55.3.604688119): taken as DICOM when its content is, refused as an unsupported
 * type otherwise.
 */
const extensionlessDicom: FileType = { ...types[0]!, mismatchDetail: UNSUPPORTED_TYPE_DETAIL };
const hasNoExtension = (name: string) => !/\.[^.]*[^0-9.][^.]*$/.test(name);

/** Bytes needed to judge any supported type (NIfTI-1's magic ends at 348). */
export const HEAD_BYTES = 352;

const mismatch = (type: FileType) =>
  unsupportedType(type.mismatchDetail ?? `The content of this file does not match its ${type.extension} extension`);

/** Refuses with 415 a file whose first bytes (HEAD_BYTES, or all of a shorter file) do not match `type`. */
export function checkSignature(type: FileType, head: Buffer): void {
  if (!type.matches(head)) throw mismatch(type);
}

/**
 * The supported type of a file name, by its extension (case-insensitive), or undefined.
 * @example fileTypeOf('Brain.NII.GZ')?.format // 'nii'
 */
export function fileTypeOf(fileName: string): FileType | undefined {
  const lower = fileName.toLowerCase();
  const named = types
    .filter((t) => lower.endsWith(t.extension) && lower.length > t.extension.length)
    .sort((a, b) => b.extension.length - a.extension.length)[0];
  return named ?? (fileName && hasNoExtension(fileName) ? extensionlessDicom : undefined);
}

/**
 * A pass-through stream that fails with 415 as soon as the first bytes do not match `type`,
 * so a mislabelled file is refused while it streams, never after it is stored.
 */
export function signatureCheck(type: FileType): Transform {
  let head: Buffer | undefined = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      if (!head) return done(null, chunk);
      head = Buffer.concat([head, chunk]);
      if (head.length < HEAD_BYTES) return done();
      const held = head;
      head = undefined;
      return type.matches(held) ? done(null, held) : done(mismatch(type));
    },
    flush(done: TransformCallback) {
      if (!head || head.length === 0) return done();
      // A file shorter than HEAD_BYTES is judged on what arrived.
      return type.matches(head) ? done(null, head) : done(mismatch(type));
    },
  });
}
