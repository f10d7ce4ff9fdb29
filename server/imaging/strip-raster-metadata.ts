import { stripTiffMetadata } from './strip-tiff-metadata.ts';
import type { ImageFormat } from './volume.ts';

// JPEG segments that carry EXIF, XMP, IPTC, ICC-free comments: APP1 (EXIF/XMP), APP12, APP13 (IPTC), COM.
const jpegDropped = new Set([0xe1, 0xec, 0xed, 0xfe]);
// PNG chunks that carry text, dates or EXIF.
const pngDropped = new Set(['eXIf', 'tEXt', 'zTXt', 'iTXt', 'tIME']);

function stripJpeg(bytes: Uint8Array): Uint8Array {
  const keep: Uint8Array[] = [bytes.subarray(0, 2)];
  let at = 2;
  while (at + 4 <= bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1]!;
    // Start of scan: everything after is entropy-coded image data, kept whole.
    if (marker === 0xda) break;
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
    if (!jpegDropped.has(marker)) keep.push(bytes.subarray(at, at + 2 + length));
    at += 2 + length;
  }
  keep.push(bytes.subarray(at));
  return join(keep);
}

function stripPng(bytes: Uint8Array): Uint8Array {
  const keep: Uint8Array[] = [bytes.subarray(0, 8)];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  while (at + 12 <= bytes.length) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    // A chunk type is four ASCII letters; anything else is not PNG structure, so the rest is kept whole
    // rather than walked 12 bytes at a time.
    if (!/^[A-Za-z]{4}$/.test(type)) {
      keep.push(bytes.subarray(at));
      break;
    }
    const end = Math.min(bytes.length, at + 12 + length);
    if (!pngDropped.has(type)) keep.push(bytes.subarray(at, end));
    at = end;
    if (type === 'IEND') break;
  }
  return join(keep);
}

function stripWebp(bytes: Uint8Array): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const keep: Uint8Array[] = [];
  let at = 12;
  while (at + 8 <= bytes.length) {
    const type = String.fromCharCode(...bytes.subarray(at, at + 4));
    const size = view.getUint32(at + 4, true);
    const end = Math.min(bytes.length, at + 8 + size + (size % 2));
    if (type !== 'EXIF' && type !== 'XMP ') keep.push(bytes.subarray(at, end).slice());
    at = end;
  }
  // VP8X announces EXIF (bit 3) and XMP (bit 2); they are gone now.
  const extended = keep.find((chunk) => String.fromCharCode(...chunk.subarray(0, 4)) === 'VP8X');
  if (extended) extended[8] = extended[8]! & ~0x0c;
  const body = join(keep);
  const out = new Uint8Array(12 + body.length);
  out.set(bytes.subarray(0, 12));
  new DataView(out.buffer).setUint32(4, 4 + body.length, true);
  out.set(body, 12);
  return out;
}

function join(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Removes EXIF, XMP, IPTC and text metadata from JPEG, PNG, WebP and TIFF without touching the pixels;
 * other formats come back unchanged (undefined).
 */
export function stripRasterMetadata(bytes: Uint8Array, format: ImageFormat | string): Uint8Array | undefined {
  if (format === 'jpg') return stripJpeg(bytes);
  if (format === 'png') return stripPng(bytes);
  if (format === 'webp') return stripWebp(bytes);
  if (format === 'tiff') return stripTiffMetadata(bytes);
  return undefined;
}
