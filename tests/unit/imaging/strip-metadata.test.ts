import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../../server/imaging/decode-image.ts';
import { stripRasterMetadata } from '../../../server/imaging/strip-raster-metadata.ts';

const secret = 'Dr Secret Person';
const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');
const grey = Uint8Array.from({ length: 64 }, (_, i) => i * 3);

/** An 8×8 8-bit greyscale TIFF written by hand with Artist, ImageDescription, XMP and an EXIF sub-IFD. */
function tiffWithMetadata(): Uint8Array {
  const text = (s: string) => Uint8Array.from([...s, '\0'].map((c) => c.charCodeAt(0)));
  const blobs = [text(secret), text('Patient Jane Doe'), text(`<x:xmpmeta>${secret}</x:xmpmeta>`), text('Owner Jane')];
  const ifd0Entries = 12;
  const ifd0 = 8;
  const exif = ifd0 + 2 + ifd0Entries * 12 + 4;
  let at = exif + 2 + 12 + 4;
  const offsets = blobs.map((b) => ((at += b.length), at - b.length));
  const pixels = at;
  const out = new Uint8Array(pixels + grey.length);
  const view = new DataView(out.buffer);
  out.set([0x49, 0x49, 42, 0]);
  view.setUint32(4, ifd0, true);
  const entry = (base: number, i: number, tag: number, type: number, count: number, value: number) => {
    const e = base + 2 + i * 12;
    view.setUint16(e, tag, true);
    view.setUint16(e + 2, type, true);
    view.setUint32(e + 4, count, true);
    if (type === 3 && count === 1) view.setUint16(e + 8, value, true);
    else view.setUint32(e + 8, value, true);
  };
  view.setUint16(ifd0, ifd0Entries, true);
  [
    [256, 3, 1, 8],
    [257, 3, 1, 8],
    [258, 3, 1, 8],
    [259, 3, 1, 1],
    [262, 3, 1, 1],
    [270, 2, blobs[1]!.length, offsets[1]!],
    [273, 4, 1, pixels],
    [277, 3, 1, 1],
    [279, 4, 1, grey.length],
    [315, 2, blobs[0]!.length, offsets[0]!],
    [700, 1, blobs[2]!.length, offsets[2]!],
    [34665, 4, 1, exif],
  ].forEach(([tag, type, count, value], i) => entry(ifd0, i, tag!, type!, count!, value!));
  view.setUint32(ifd0 + 2 + ifd0Entries * 12, 0, true);
  view.setUint16(exif, 1, true);
  entry(exif, 0, 37510, 7, blobs[3]!.length, offsets[3]!);
  blobs.forEach((b, i) => out.set(b, offsets[i]!));
  out.set(grey, pixels);
  return out;
}

describe('metadata stripped from raster images', () => {
  it('blanks text and XMP tags of a TIFF and keeps its pixels', async () => {
    const tiff = tiffWithMetadata();
    expect(latin1(tiff)).toContain(secret);
    const clean = stripRasterMetadata(tiff, 'tiff')!;
    expect(latin1(clean)).not.toContain(secret);
    expect(latin1(clean)).not.toContain('Patient Jane');
    expect(latin1(tiff)).toContain('Owner Jane');
    expect(latin1(clean)).not.toContain('Owner Jane');
    expect(clean.length).toBe(tiff.length);
    expect(Array.from((await decodeImage(clean)).data)).toEqual(Array.from(grey));
  });

  it('removes EXIF from JPEG and WebP, and text chunks from PNG, pixels unchanged', async () => {
    const base = sharp(grey, { raw: { width: 8, height: 8, channels: 1 } });
    const jpeg = await base
      .clone()
      .jpeg()
      .withExif({ IFD0: { Artist: secret } })
      .toBuffer();
    const webp = await base
      .clone()
      .webp({ lossless: true })
      .withExif({ IFD0: { Artist: secret } })
      .toBuffer();
    const png = withTextChunk(await base.clone().png().toBuffer(), `Author\0${secret}`);
    for (const [format, bytes] of [
      ['jpg', jpeg],
      ['webp', webp],
      ['png', png],
    ] as const) {
      expect(latin1(bytes), format).toContain(secret);
      const clean = stripRasterMetadata(new Uint8Array(bytes), format)!;
      expect(latin1(clean), format).not.toContain(secret);
      const [a, b] = await Promise.all([bytes, Buffer.from(clean)].map((x) => sharp(x).raw().toBuffer()));
      expect(Buffer.compare(a!, b!), format).toBe(0);
    }
  });
});

/** Inserts a tEXt chunk right after IHDR. */
function withTextChunk(png: Buffer, text: string): Buffer {
  const body = Buffer.from(text, 'latin1');
  const chunk = Buffer.alloc(12 + body.length);
  chunk.writeUInt32BE(body.length, 0);
  chunk.write('tEXt', 4, 'latin1');
  body.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + body.length)), 8 + body.length);
  return Buffer.concat([png.subarray(0, 33), chunk, png.subarray(33)]);
}
