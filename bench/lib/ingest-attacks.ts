// The files of the ingest security review (issue 35), made by code for `npm run bench -- bombs`: each cheap to
// send and costly to take in. Same names and signatures as tests/fixtures/ingest-attacks.ts, which the bench
// uses instead when that file is there (see bench/bombs.ts).
import zlib from 'node:zlib';
import { gzipBomb } from '../../tests/fixtures/decompression-bombs.ts';
import { writeDicomFile, writeElements, type FixtureElement } from '../../tests/fixtures/dicom-writer.ts';
import { writeNifti } from '../../tests/fixtures/nifti-writer.ts';

/** One attack: the file name it is sent under, its bytes and the route it is sent to. */
export interface IngestAttack {
  name: string;
  bytes: Uint8Array;
  route: '/uploads' | '/uploads/series';
}

const FLUSH = { finishFlush: zlib.constants.Z_FULL_FLUSH };

/** An NRRD file of about `bytes` whose header never ends: field lines, then comments, and no blank line. */
export function nrrdHeaderWithoutBlankLine(bytes: number): IngestAttack {
  const fields = 'NRRD0004\ntype: uint8\ndimension: 3\nsizes: 4 4 4\nencoding: raw\n';
  const comment = `# ${'n'.repeat(61)}\n`;
  const text = fields + comment.repeat(Math.max(0, Math.ceil((bytes - fields.length) / comment.length)));
  return { name: 'header-only.nrrd', bytes: new TextEncoder().encode(text), route: '/uploads' };
}

/** A NIfTI-1 file of 4 x 4 x 4 bytes whose `vox_offset` puts them `bytes` into the file, after zeros. */
export function niftiWithHugeVoxOffset(bytes: number): IngestAttack {
  const header = writeNifti({ dims: [4, 4, 4], type: 'uint8', values: new Uint8Array(64).fill(9) }).subarray(0, 352);
  const offset = Math.max(352, bytes - (bytes % 16));
  const out = new Uint8Array(offset + 64).fill(9, offset);
  out.set(header);
  new DataView(out.buffer).setFloat32(108, offset, true);
  return { name: 'far-offset.nii', bytes: out, route: '/uploads' };
}

interface ZipEntry {
  name: string;
  /** Raw deflate data. */
  data: Uint8Array;
  size: number;
  crc: number;
}

/** A zip archive of deflated entries with honest sizes and CRCs (PKWARE APPNOTE 4.3.7 and 4.3.12). */
function zipArchive(entries: ZipEntry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const directory: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(entry.crc >>> 0, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    parts.push(local, name, entry.data);
    directory.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directoryBytes = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directoryBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...parts, directoryBytes, end]));
}

/** `length` bytes of a fixed pseudo-random sequence (xorshift32). */
function noise(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 255;
  }
  return out;
}

/**
 * A zip of about `sentBytes` whose entries expand about 80-fold each, under the 100-fold ratio zip-bomb guards
 * allow: 12.5 MB of it is about a gigabyte expanded.
 */
export function zipUnderRatio(sentBytes: number): IngestAttack {
  // One piece: 1 KiB of noise (which does not compress) and 99 KiB of zeros, flushed so it can be repeated.
  const plain = Buffer.concat([noise(1024, 7), Buffer.alloc(99 * 1024)]);
  const piece = zlib.deflateRawSync(plain, FLUSH);
  const pieces = 640;
  const data = Buffer.concat([...Array<Buffer>(pieces).fill(piece), zlib.deflateRawSync(Buffer.alloc(0))]);
  let crc = 0;
  for (let i = 0; i < pieces; i++) crc = zlib.crc32(plain, crc);
  const count = Math.max(1, Math.round(sentBytes / data.length));
  const entries = Array.from({ length: count }, (_, i) => ({
    name: `series/slice-${String(i + 1).padStart(4, '0')}.dcm`,
    data,
    size: plain.length * pieces,
    crc,
  }));
  return { name: 'under-ratio.zip', bytes: zipArchive(entries), route: '/uploads/series' };
}

/** The elements of CT slice `index` of one series, `size` x `size` 16-bit, with a patient name to de-identify. */
function ctSliceElements(index: number, size = 512): FixtureElement[] {
  const series = '1.2.826.0.1.3680043.8.498.7735';
  return [
    { tag: '00080016', vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.2' },
    { tag: '00080018', vr: 'UI', value: `${series}.${String(index + 1).padStart(5, '0')}` },
    { tag: '00080060', vr: 'CS', value: 'CT' },
    { tag: '00100010', vr: 'PN', value: 'ROE^RICHARD' },
    { tag: '00100020', vr: 'LO', value: 'MRN-7735' },
    { tag: '0020000D', vr: 'UI', value: `${series}.1` },
    { tag: '0020000E', vr: 'UI', value: `${series}.2` },
    { tag: '00200013', vr: 'IS', value: String(index + 1).padStart(5, '0') },
    { tag: '00200032', vr: 'DS', value: `-256\\-256\\${String(index).padStart(6, '0')}` },
    { tag: '00200037', vr: 'DS', value: '1\\0\\0\\0\\1\\0' },
    { tag: '00280002', vr: 'US', value: [1] },
    { tag: '00280004', vr: 'CS', value: 'MONOCHROME2' },
    { tag: '00280010', vr: 'US', value: [size] },
    { tag: '00280011', vr: 'US', value: [size] },
    { tag: '00280030', vr: 'DS', value: '0.7\\0.7' },
    { tag: '00180050', vr: 'DS', value: '1' },
    { tag: '00280100', vr: 'US', value: [16] },
    { tag: '00280101', vr: 'US', value: [12] },
    { tag: '00280102', vr: 'US', value: [11] },
    { tag: '00280103', vr: 'US', value: [0] },
    { tag: '00281052', vr: 'DS', value: '-1024' },
    { tag: '00281053', vr: 'DS', value: '1' },
  ];
}

/** A `size` x `size` CT slice's pixel data element: air around a body disc of soft tissue with a little grain. */
export function ctPixelElement(size = 512): Uint8Array {
  const [centre, radius] = [size / 2, (size * 180) / 512];
  const pixels = Buffer.alloc(size * size * 2);
  const grain = noise(size * size, 35);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const body = (x - centre) ** 2 + (y - centre) ** 2 < radius ** 2;
      pixels.writeUInt16LE(body ? 1064 + ((grain[y * size + x]! & 63) === 0 ? 1 : 0) : 24, (y * size + x) * 2);
    }
  const element = writeElements([{ tag: '7FE00010', vr: 'OW', value: new Uint8Array(pixels) }], true, true);
  return element;
}

/** One whole CT slice file (Part 10, explicit VR little endian, `size` square): a series' slices differ only in their numbers. */
export function ctSliceFile(index: number, size = 512, pixelElement = ctPixelElement(size)): Uint8Array {
  const head = writeDicomFile({ syntax: 'explicit-le', elements: ctSliceElements(index, size) });
  return new Uint8Array(Buffer.concat([head, pixelElement]));
}

/**
 * A zip of about `sentBytes` of real CT slices (512 x 512 16-bit, one series), deflated as zip tools do; each
 * expands tens of times, so 12.5 MB of zip holds the better part of a gigabyte of slices.
 */
export function zipOfRealSlices(sentBytes: number): IngestAttack {
  const pixels = ctPixelElement();
  // The pixel data element is the same in every slice: deflated once, after each slice's own flushed header.
  const pixelsDeflated = zlib.deflateRawSync(pixels, { level: 6 });
  const entry = (index: number): ZipEntry => {
    const head = writeDicomFile({ syntax: 'explicit-le', elements: ctSliceElements(index) });
    return {
      name: `CT/IM${String(index + 1).padStart(5, '0')}.dcm`,
      data: Buffer.concat([zlib.deflateRawSync(head, FLUSH), pixelsDeflated]),
      size: head.length + pixels.length,
      crc: zlib.crc32(pixels, zlib.crc32(head)),
    };
  };
  const first = entry(0);
  const count = Math.max(2, Math.round(sentBytes / (first.data.length + 120)));
  return {
    name: 'real-slices.zip',
    bytes: zipArchive([first, ...Array.from({ length: count - 1 }, (_, i) => entry(i + 1))]),
    route: '/uploads/series',
  };
}

let zeroPiece: Buffer | undefined;

/** Exactly `count` zeros as raw deflate blocks ending on a byte boundary, with no final block. */
function deflatedZeros(count: number): Buffer {
  const size = 64 * 1024 * 1024;
  // 64 MiB of zeros deflated once (about 64 KB) and repeated; full flush leaves nothing pending between copies.
  zeroPiece ??= zlib.deflateRawSync(Buffer.alloc(size), { level: 9, ...FLUSH });
  const whole = Math.floor(count / size);
  return Buffer.concat([
    ...Array<Buffer>(whole).fill(zeroPiece),
    zlib.deflateRawSync(Buffer.alloc(count - whole * size), FLUSH),
  ]);
}

/**
 * A Deflated Explicit VR Little Endian DICOM that honestly declares `rows` x `cols` 16-bit pixels, all zero:
 * 12000 x 12000 is 288 MB of pixels sent as about 280 KB.
 */
export function deflatedDicomDeclaring(rows: number, cols: number): IngestAttack {
  const shell = writeDicomFile({ syntax: 'deflated', elements: [] });
  // The empty data set deflates to a 2-byte final block: the data set below takes its place.
  const meta = shell.subarray(0, shell.length - 2);
  const elements = writeElements(
    [
      { tag: '00080016', vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.7' },
      { tag: '00080018', vr: 'UI', value: '1.2.826.0.1.3680043.8.498.7736' },
      { tag: '00080060', vr: 'CS', value: 'OT' },
      { tag: '00100010', vr: 'PN', value: 'ROE^RICHARD' },
      { tag: '00280002', vr: 'US', value: [1] },
      { tag: '00280004', vr: 'CS', value: 'MONOCHROME2' },
      { tag: '00280010', vr: 'US', value: [rows] },
      { tag: '00280011', vr: 'US', value: [cols] },
      { tag: '00280100', vr: 'US', value: [16] },
      { tag: '00280101', vr: 'US', value: [16] },
      { tag: '00280102', vr: 'US', value: [15] },
      { tag: '00280103', vr: 'US', value: [0] },
    ],
    true,
    true,
  );
  const pixelBytes = rows * cols * 2;
  const pixelHeader = Buffer.alloc(12);
  pixelHeader.writeUInt16LE(0x7fe0, 0);
  pixelHeader.writeUInt16LE(0x0010, 2);
  pixelHeader.write('OW', 4, 'latin1');
  pixelHeader.writeUInt32LE(pixelBytes, 8);
  const body = Buffer.concat([
    zlib.deflateRawSync(Buffer.concat([elements, pixelHeader]), FLUSH),
    deflatedZeros(pixelBytes),
    zlib.deflateRawSync(Buffer.alloc(0)),
  ]);
  return {
    name: `declared-${rows}x${cols}.dcm`,
    bytes: new Uint8Array(Buffer.concat([meta, body])),
    route: '/uploads',
  };
}

/**
 * A .nii.gz of about `sentBytes` that honestly declares 1024 x 1024 x N uint8 voxels of zeros: 10 MB of it is
 * about ten gigabytes to inflate (and, cleaned on arrival, to compress again).
 */
export function gzipNifti(sentBytes: number): IngestAttack {
  const piece = 64 * 1024 * 1024;
  const pieceSent = gzipBomb(new Uint8Array(0), piece).length - zlib.gzipSync(new Uint8Array(0)).length;
  const count = Math.max(1, Math.round(sentBytes / pieceSent));
  const header = writeNifti({ dims: [1, 1, 1], type: 'uint8', values: [] }).subarray(0, 352);
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  [1024, 1024, 64 * count].forEach((d, i) => view.setInt16(42 + i * 2, d, true));
  return { name: 'large.nii.gz', bytes: new Uint8Array(gzipBomb(header, 352 + count * piece)), route: '/uploads' };
}
