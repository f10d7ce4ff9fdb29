/** Explicit VRs whose length takes four bytes after two reserved ones (PS3.5 7.1.2). */
const LONG_VRS = new Set(['OB', 'OD', 'OF', 'OL', 'OV', 'OW', 'SQ', 'UC', 'UN', 'UR', 'UT', 'SV', 'UV']);
const UNDEFINED = 0xffffffff;

/**
 * A copy of an explicit little-endian data set in which an item of a top-level sequence that claims to
 * run past its sequence's end (or the file's) is cut to end there, or undefined when there is none.
 * Some tools remove attributes from a directory record without shortening the item that holds it
 * (pydicom's DICOMDIR-nooffset); pydicom reads such an item as far as its bytes go, while dicom-parser
 * refuses the whole file. Only the item lengths change: no byte of content is added or dropped.
 */
export function cutOverrunItems(bytes: Uint8Array, dataSetStart: number): Uint8Array | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let copy: Uint8Array | undefined;
  for (let at = dataSetStart; at + 8 <= bytes.length;) {
    const vr = String.fromCharCode(bytes[at + 4]!, bytes[at + 5]!);
    if (!/^[A-Z]{2}$/.test(vr)) return copy;
    const long = LONG_VRS.has(vr);
    if (long && at + 12 > bytes.length) return copy;
    const length = long ? view.getUint32(at + 8, true) : view.getUint16(at + 6, true);
    const header = long ? 12 : 8;
    if (length === UNDEFINED) return copy;
    if (vr === 'SQ') {
      const end = Math.min(at + header + length, bytes.length);
      for (let item = at + header; item + 8 <= end;) {
        const isItem = view.getUint16(item, true) === 0xfffe && view.getUint16(item + 2, true) === 0xe000;
        const itemLength = view.getUint32(item + 4, true);
        if (!isItem || itemLength === UNDEFINED) break;
        if (item + 8 + itemLength > end) {
          copy ??= bytes.slice();
          new DataView(copy.buffer).setUint32(item + 4, end - item - 8, true);
          break;
        }
        item += 8 + itemLength;
      }
    }
    at += header + length;
  }
  return copy;
}
