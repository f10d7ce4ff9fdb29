import { Transform } from 'node:stream';
import zlib from 'node:zlib';
import { UndecodableImageError } from './volume.ts';

/**
 * Compressed data that expands past what its file declares (or past what the server holds for one
 * image): refused before it can fill memory, as a decompression bomb would.
 */
export class DecompressionLimitError extends UndecodableImageError {
  constructor(message: string) {
    super(message);
    this.name = 'DecompressionLimitError';
  }
}

/**
 * Most bytes anything a client sent may expand to once decompressed, whatever it declares: the most the
 * server decodes of one image (see DEFAULT_DECODE_LIMITS), so nothing larger could be shown or checked anyway.
 */
export const ABSOLUTE_EXPANDED_BYTES = 1024 * 1024 * 1024;

/**
 * Stored bytes per byte sent, past STORED_GRACE_BYTES. Real CT and MR slices deflate two- to four-fold (noisy
 * 12-bit samples in 16-bit words), six-fold with much air around the body; past ten-fold an upload is mostly
 * padding or zeros, and storing it expanded would turn a few megabytes sent into a gigabyte on disk and in
 * memory. Ten-fold keeps every real series and bounds what one request can cost.
 */
export const STORED_RATIO = 10;
/** Below this many expanded bytes the ratio is not held against an upload: small files of blank masks compress further. */
export const STORED_GRACE_BYTES = 64 * 1024 * 1024;

/**
 * The most bytes that `sentBytes` sent may expand to and be stored as: ten-fold past 64 MiB, never more
 * than `cap` nor ABSOLUTE_EXPANDED_BYTES.
 * @example storedBytesAllowed(12.5e6, 2 ** 31) // 125_000_000
 */
export function storedBytesAllowed(sentBytes: number, cap: number = ABSOLUTE_EXPANDED_BYTES): number {
  return Math.min(cap, ABSOLUTE_EXPANDED_BYTES, Math.max(STORED_GRACE_BYTES, STORED_RATIO * sentBytes));
}

/** Which wrapper the deflate stream has: gzip (.gz), zlib, or none (zip entries, deflated DICOM). */
export type DeflateWrapper = 'gzip' | 'zlib' | 'raw';

/** A byte count as people read it: KB below a megabyte, MB above. */
export const sizeText = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${Math.ceil(bytes / 1024 / 1024)} MB`;

const inflaters = {
  gzip: zlib.gunzipSync,
  zlib: zlib.inflateSync,
  raw: zlib.inflateRawSync,
} as const;

/** True for gzip bytes (RFC 1952 magic). */
export const isGzip = (bytes: Uint8Array) => bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

/**
 * Inflates a whole stream, stopping as soon as the output passes `limit` bytes: zlib's own output cap,
 * so a 1 MB stream that would expand to gigabytes costs no more than `limit` bytes of work and memory.
 * `what` names the data in the message ("This NIfTI file").
 */
export function inflateAtMost(bytes: Uint8Array, wrapper: DeflateWrapper, limit: number, what: string): Uint8Array {
  try {
    const out = inflaters[wrapper](bytes, { maxOutputLength: Math.max(1, Math.floor(limit)), chunkSize: 64 * 1024 });
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new DecompressionLimitError(
        `${what} decompresses to more than ${sizeText(limit)}, more than it declares: refused as a possible decompression bomb.`,
      );
    }
    throw new UndecodableImageError(`${what} has damaged compressed data.`);
  }
}

/**
 * The first `size` bytes of a stream (fewer when it is shorter), inflating only as much input as that
 * takes: enough to read a header and learn how large the whole should be.
 */
export function inflateHead(bytes: Uint8Array, wrapper: DeflateWrapper, size: number): Uint8Array {
  // Deflate expands at most 1032-fold, so each round's output is bounded by its input; rounds start small
  // because a header compresses little, while a bomb's first kilobyte already expands to a megabyte.
  for (let input = 512; ; input *= 2) {
    let out: Buffer;
    try {
      out = inflaters[wrapper](bytes.subarray(0, input), {
        finishFlush: zlib.constants.Z_SYNC_FLUSH,
        maxOutputLength: Math.max(size, 1032 * input),
      });
    } catch {
      out = Buffer.alloc(0);
    }
    if (out.length >= size || input >= bytes.length) {
      return new Uint8Array(out.buffer, out.byteOffset, Math.min(size, out.length));
    }
  }
}

/** Limits on what one archive may expand to. */
export interface UnzipLimits {
  /** Most bytes all entries together may hold once expanded (counted as they are inflated, too). */
  totalBytes: number;
  /** Most entries. */
  entries: number;
  /** The refusal when the entries expand past `totalBytes`, when the caller's reason for that bound says more. */
  overTotal?: string;
}

/** Past this many expanded bytes an archive must not have grown more than MAX_RATIO-fold over its size. */
const RATIO_GRACE_BYTES = 64 * 1024 * 1024;
/**
 * Medical images compress a few-fold; a hundred-fold is what zip-bomb guards commonly allow (Apache
 * POI's ZipSecureFile, for one). Blank masks compress further, but not past 64 MB.
 */
const MAX_RATIO = 100;

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeader: number;
}

const damagedArchive = () => new UndecodableImageError('This archive is damaged and could not be opened.');

/**
 * The central directory of a zip archive (PKWARE APPNOTE 4.3.12-16, with zip64 sizes). Written here, not
 * taken from fflate, because fflate's `unzipSync` trusts each entry's declared size and inflates a lying
 * entry to its end, and its streaming reader copies its 32 KiB window on every push; the entries are
 * inflated by zlib, which stops at the declared size.
 */
function zipDirectory(zip: Uint8Array): ZipEntry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let end = zip.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) {
    if (zip.length - end > 65557) throw damagedArchive();
    end -= 1;
  }
  if (end < 0) throw damagedArchive();
  let count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const locator = end - 20;
  if (locator >= 0 && view.getUint32(locator, true) === 0x07064b50) {
    const end64 = Number(view.getBigUint64(locator + 8, true));
    if (end64 + 56 > zip.length || view.getUint32(end64, true) !== 0x06064b50) throw damagedArchive();
    count = Number(view.getBigUint64(end64 + 32, true));
    at = Number(view.getBigUint64(end64 + 48, true));
  }
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || view.getUint32(at, true) !== 0x02014b50) throw damagedArchive();
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const entry: ZipEntry = {
      name: new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength)),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localHeader: view.getUint32(at + 42, true),
    };
    // Sizes and offset saturated at 0xFFFFFFFF are in the zip64 extra field, in this order.
    for (let x = at + 46 + nameLength; x + 4 <= at + 46 + nameLength + extraLength;) {
      const id = view.getUint16(x, true);
      const length = view.getUint16(x + 2, true);
      if (id === 1) {
        let field = x + 4;
        for (const key of ['size', 'compressedSize', 'localHeader'] as const) {
          if (entry[key] !== 0xffffffff || field + 8 > x + 4 + length) continue;
          entry[key] = Number(view.getBigUint64(field, true));
          field += 8;
        }
      }
      x += 4 + length;
    }
    entries.push(entry);
    at += 46 + nameLength + extraLength + view.getUint16(at + 32, true);
  }
  return entries;
}

function entryData(zip: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const at = entry.localHeader;
  if (at + 30 > zip.length || view.getUint32(at, true) !== 0x04034b50) throw damagedArchive();
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  if (start + entry.compressedSize > zip.length) throw damagedArchive();
  return zip.subarray(start, start + entry.compressedSize);
}

/**
 * Opens a zip archive, refusing before any inflating one whose declared sizes pass `limits` or grow more
 * than a hundred-fold past 64 MB, and inflating each entry no further than it declares. Folders are
 * skipped; `keep` chooses entries by name.
 */
export function unzipBounded(
  archive: Uint8Array,
  limits: UnzipLimits,
  keep: (name: string) => boolean = () => true,
): { name: string; bytes: Uint8Array }[] {
  const entries = zipDirectory(archive).filter((entry) => !entry.name.endsWith('/') && keep(entry.name));
  if (entries.length > limits.entries)
    throw new DecompressionLimitError(`This archive holds more than ${limits.entries} files.`);
  const total = entries.reduce((sum, entry) => sum + entry.size, 0);
  if (total > limits.totalBytes)
    throw new DecompressionLimitError(
      limits.overTotal ??
        `This archive expands to ${sizeText(total)}, more than the ${sizeText(limits.totalBytes)} one upload may hold: refused as a possible zip bomb.`,
    );
  if (total > RATIO_GRACE_BYTES && total > MAX_RATIO * archive.length)
    throw new DecompressionLimitError(
      `This archive expands more than ${MAX_RATIO}-fold (${sizeText(archive.length)} to ${sizeText(total)}): refused as a possible zip bomb.`,
    );
  // A running count of what has been inflated: each entry stops at its declared size, and the whole at the total.
  let inflated = 0;
  return entries.map((entry) => {
    const data = entryData(archive, entry);
    if (entry.method === 0) {
      if (entry.compressedSize !== entry.size) throw damagedArchive();
      inflated += data.length;
      return { name: entry.name, bytes: data };
    }
    if (entry.method !== 8)
      throw new UndecodableImageError(
        `The archive entry ${entry.name} uses compression method ${entry.method}; only deflate is supported.`,
      );
    const room = Math.min(entry.size, limits.totalBytes - inflated);
    const bytes = inflateAtMost(data, 'raw', room, `The archive entry ${entry.name}`);
    if (bytes.length !== entry.size) throw damagedArchive();
    inflated += bytes.length;
    return { name: entry.name, bytes };
  });
}

/** Bounds on a gzip stream inflated as it arrives. */
export interface StreamInflateLimits {
  /** Most bytes it may expand to, whatever it declares. */
  absoluteBytes: number;
  /** Past `graceBytes`, most bytes out per byte in so far. */
  ratio: number;
  graceBytes: number;
  /** What the data declares it holds, read from its first `headBytes` bytes out; undefined when it says nothing. */
  declaredOf?: (head: Uint8Array) => number | undefined;
  headBytes?: number;
}

/**
 * A gunzip stage with a running count of its input and output: it fails (with `refuse(message)`, a
 * DecompressionLimitError by default) as soon as the output passes the absolute cap, what the data's header
 * declares (with 64 KiB to spare), or `ratio` times the input past the grace, so a 10 MB gzip that would
 * expand to 10 GB costs no more than the first of those bounds. `what` names the data ("This NIfTI file").
 * Use the three streams in this order in a pipeline.
 */
export function boundedGunzip(
  limits: StreamInflateLimits,
  what: string,
  refuse: (message: string) => Error = (message) => new DecompressionLimitError(message),
): [Transform, Transform, Transform] {
  let sent = 0;
  let out = 0;
  let limit = limits.absoluteBytes;
  let head: Buffer[] | undefined = limits.declaredOf ? [] : undefined;
  const headBytes = limits.headBytes ?? 544;
  const countIn = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      sent += chunk.length;
      done(null, chunk);
    },
  });
  const countOut = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      out += chunk.length;
      if (head && limits.declaredOf) {
        head.push(chunk);
        const joined = Buffer.concat(head);
        if (joined.length >= headBytes) {
          const declared = limits.declaredOf(joined);
          if (declared !== undefined && Number.isFinite(declared)) limit = Math.min(limit, declared + 64 * 1024);
          head = undefined;
        } else head = [joined];
      }
      if (out > limit)
        return done(
          refuse(
            limit < limits.absoluteBytes
              ? `${what} decompresses to more than ${sizeText(limit)}, more than it declares: refused as a possible decompression bomb.`
              : `${what} decompresses to more than ${sizeText(limit)}, more than one image may hold here: refused as a possible decompression bomb.`,
          ),
        );
      if (out > limits.graceBytes && out > limits.ratio * sent)
        return done(
          refuse(
            `${what} expands more than ${limits.ratio}-fold (${sizeText(sent)} to ${sizeText(out)}): refused as a possible decompression bomb.`,
          ),
        );
      done(null, chunk);
    },
  });
  return [countIn, zlib.createGunzip(), countOut];
}
