// Tags that carry names, dates, free text or embedded metadata blocks (XMP, IPTC, Photoshop, EXIF, GPS).
const sensitiveTags = new Set([
  269, 270, 285, 306, 315, 316, 700, 33432, 33723, 34377, 37510, 40091, 40092, 40093, 40094, 40095,
]);
const subIfdTags = new Set([34665, 34853]);
const typeSizes: Record<number, number> = {
  1: 1,
  2: 1,
  3: 2,
  4: 4,
  5: 8,
  6: 1,
  7: 1,
  8: 2,
  9: 4,
  10: 8,
  11: 4,
  12: 8,
  13: 4,
};

/**
 * Blanks identifying metadata in a classic TIFF in place (a copy is returned): the values of text and
 * metadata tags of every page are zeroed, and EXIF/GPS sub-directories are emptied. Pixels and layout are
 * untouched, so 16-bit and multi-page files stay exactly as they were. Undefined for BigTIFF or damage.
 */
export function stripTiffMetadata(input: Uint8Array): Uint8Array | undefined {
  const bytes = input.slice();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const little = bytes[0] === 0x49;
  if (view.getUint16(2, little) !== 42) return undefined;
  const zero = (from: number, length: number) => {
    if (from >= 0 && from + length <= bytes.length) bytes.fill(0, from, from + length);
  };
  const valueAt = (entry: number) => {
    const type = view.getUint16(entry + 2, little);
    const length = (typeSizes[type] ?? 1) * view.getUint32(entry + 4, little);
    return { length, at: length <= 4 ? entry + 8 : view.getUint32(entry + 8, little) };
  };
  const blankDirectory = (offset: number) => {
    if (offset + 2 > bytes.length) return;
    const count = view.getUint16(offset, little);
    for (let i = 0; i < count; i++) {
      const { at, length } = valueAt(offset + 2 + i * 12);
      zero(at, length);
    }
    zero(offset + 2, count * 12);
    view.setUint16(offset, 0, little);
  };
  const seen = new Set<number>();
  let ifd = view.getUint32(4, little);
  try {
    while (ifd > 0 && ifd + 2 <= bytes.length && !seen.has(ifd)) {
      seen.add(ifd);
      const count = view.getUint16(ifd, little);
      for (let i = 0; i < count; i++) {
        const entry = ifd + 2 + i * 12;
        const tag = view.getUint16(entry, little);
        if (subIfdTags.has(tag)) blankDirectory(view.getUint32(entry + 8, little));
        else if (sensitiveTags.has(tag)) {
          const { at, length } = valueAt(entry);
          zero(at, length);
        }
      }
      ifd = view.getUint32(ifd + 2 + count * 12, little);
    }
  } catch {
    return undefined;
  }
  return bytes;
}
