/** A DICOM byte writer: element headers in any of the three encodings, values, and the Part 10 file meta. */
const longVrs = new Set(['OB', 'OW', 'OF', 'OD', 'OL', 'OV', 'SQ', 'UC', 'UN', 'UR', 'UT', 'SV', 'UV']);

/** A data set's byte order and VR encoding. */
export interface Encoding {
  little: boolean;
  explicit: boolean;
}

/** Collects a data set's elements as bytes, in order. */
export class Writer {
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
    return Buffer.concat(this.parts, this.size);
  }
}

/** A Part 10 preamble and File Meta group naming this SOP instance and transfer syntax, written by this software. */
export function fileMeta(sopClass: string, sopInstance: string, syntax: string): Uint8Array {
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
