/**
 * Sequential Huffman JPEG (ITU T.81 processes 1, 2 and 4: SOF0 and SOF1) at any precision up to 12 bits,
 * for DICOM JPEG Extended (1.2.840.10008.1.2.4.51) 12-bit frames. Hand-written because no 12-bit JPEG
 * decoder is published on npm: libjpeg-turbo's WebAssembly build there is 8-bit only, and the 12-bit
 * codec of @cornerstonejs/dicom-codec is a placeholder that throws. 8-bit streams still go to libjpeg-turbo.
 * Samples come back as stored (no colour transform), 16-bit little endian.
 */
import type { DecodedFrame } from './wasm-codecs.ts';

// Position in the natural (row-major) 8×8 block of the k-th coefficient in zig-zag order.
const ZIGZAG = Uint8Array.from([
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
  35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47,
  55, 62, 63,
]);

// cos((2x + 1) u π / 16) scaled by C(u)/2, for the separable inverse DCT.
const IDCT = new Float64Array(64);
for (let x = 0; x < 8; x++)
  for (let u = 0; u < 8; u++)
    IDCT[x * 8 + u] = ((u === 0 ? Math.SQRT1_2 : 1) / 2) * Math.cos(((2 * x + 1) * u * Math.PI) / 16);

interface HuffmanTable {
  /** For each code length 1–16: the largest code of that length (-1 when none), and where its symbols start. */
  maxCode: Int32Array;
  valPtr: Int32Array;
  minCode: Int32Array;
  symbols: Uint8Array;
}

interface Component {
  id: number;
  h: number;
  v: number;
  tq: number;
  td: number;
  ta: number;
  blocksPerLine: number;
  blocksPerColumn: number;
  /** Samples of the whole component, blocksPerLine × 8 wide. */
  plane: Float32Array;
  prediction: number;
}

function huffmanTable(counts: Uint8Array, symbols: Uint8Array): HuffmanTable {
  const maxCode = new Int32Array(17).fill(-1);
  const minCode = new Int32Array(17);
  const valPtr = new Int32Array(17);
  let code = 0;
  let k = 0;
  for (let length = 1; length <= 16; length++) {
    const n = counts[length - 1]!;
    if (n) {
      valPtr[length] = k;
      minCode[length] = code;
      code += n;
      k += n;
      maxCode[length] = code - 1;
    }
    code <<= 1;
  }
  return { maxCode, minCode, valPtr, symbols };
}

class BitReader {
  private bits = 0;
  private count = 0;
  private readonly data: Uint8Array;
  position: number;
  constructor(data: Uint8Array, position: number) {
    this.data = data;
    this.position = position;
  }
  bit(): number {
    if (this.count === 0) {
      let byte = this.data[this.position] ?? 0;
      if (byte === 0xff) {
        const next = this.data[this.position + 1];
        // A stuffed zero follows a data 0xFF; any other byte is a marker, past which there are no bits.
        if (next === 0) this.position += 2;
        else byte = 0;
      } else this.position++;
      this.bits = byte;
      this.count = 8;
    }
    this.count--;
    return (this.bits >> this.count) & 1;
  }
  receive(length: number): number {
    let value = 0;
    for (let i = 0; i < length; i++) value = (value << 1) | this.bit();
    return value;
  }
  decode(table: HuffmanTable): number {
    let code = 0;
    for (let length = 1; length <= 16; length++) {
      code = (code << 1) | this.bit();
      if (code <= table.maxCode[length]!) return table.symbols[table.valPtr[length]! + code - table.minCode[length]!]!;
    }
    throw new Error('invalid Huffman code');
  }
  /** Skips to just past the next restart marker, dropping the bits left in the current byte. */
  restart(): void {
    this.count = 0;
    while (this.position + 1 < this.data.length) {
      if (
        this.data[this.position] === 0xff &&
        this.data[this.position + 1]! >= 0xd0 &&
        this.data[this.position + 1]! <= 0xd7
      ) {
        this.position += 2;
        return;
      }
      this.position++;
    }
  }
}

const extend = (value: number, length: number) => (value < 1 << (length - 1) ? value - (1 << length) + 1 : value);

function decodeBlock(
  reader: BitReader,
  component: Component,
  dc: HuffmanTable,
  ac: HuffmanTable,
  quant: Uint16Array,
  row: number,
  col: number,
  coefficients: Float64Array,
): void {
  coefficients.fill(0);
  const t = reader.decode(dc);
  component.prediction += t ? extend(reader.receive(t), t) : 0;
  coefficients[0] = component.prediction * quant[0]!;
  for (let k = 1; k < 64;) {
    const rs = reader.decode(ac);
    const s = rs & 15;
    const r = rs >> 4;
    if (s === 0) {
      if (r !== 15) break;
      k += 16;
      continue;
    }
    k += r;
    if (k > 63) break;
    coefficients[ZIGZAG[k]!] = extend(reader.receive(s), s) * quant[k]!;
    k++;
  }
  // Separable inverse DCT: columns, then rows, into the component plane.
  const temp = new Float64Array(64);
  for (let u = 0; u < 8; u++)
    for (let y = 0; y < 8; y++) {
      let sum = 0;
      for (let v = 0; v < 8; v++) sum += IDCT[y * 8 + v]! * coefficients[v * 8 + u]!;
      temp[y * 8 + u] = sum;
    }
  const stride = component.blocksPerLine * 8;
  for (let y = 0; y < 8; y++)
    for (let x = 0; x < 8; x++) {
      let sum = 0;
      for (let u = 0; u < 8; u++) sum += IDCT[x * 8 + u]! * temp[y * 8 + u]!;
      component.plane[(row * 8 + y) * stride + col * 8 + x] = sum;
    }
}

/** Decodes one sequential Huffman JPEG (SOF0/SOF1) of up to 12-bit precision into stored samples. */
export function decodeSequentialJpeg(jpeg: Uint8Array): DecodedFrame {
  const quant: Uint16Array[] = [];
  const dcTables: HuffmanTable[] = [];
  const acTables: HuffmanTable[] = [];
  let components: Component[] = [];
  let precision = 8;
  let width = 0;
  let height = 0;
  let restartInterval = 0;
  let maxH = 1;
  let maxV = 1;
  let p = 2;
  const u16 = (at: number) => (jpeg[at]! << 8) | jpeg[at + 1]!;
  if (u16(0) !== 0xffd8) throw new Error('not a JPEG stream');
  while (p + 4 <= jpeg.length) {
    if (jpeg[p] !== 0xff) {
      p++;
      continue;
    }
    const marker = jpeg[p + 1]!;
    if (marker === 0xd9) break;
    if (marker === 0xff || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      p += marker === 0xff ? 1 : 2;
      continue;
    }
    const length = u16(p + 2);
    const body = p + 4;
    const end = p + 2 + length;
    if (end > jpeg.length) throw new Error('segment runs past the end of the stream');
    if (marker === 0xdb) {
      for (let q = body; q < end;) {
        const wide = jpeg[q]! >> 4;
        const table = new Uint16Array(64);
        for (let k = 0; k < 64; k++) table[k] = wide ? u16(q + 1 + k * 2) : jpeg[q + 1 + k]!;
        quant[jpeg[q]! & 15] = table;
        q += 1 + 64 * (wide ? 2 : 1);
      }
    } else if (marker === 0xc4) {
      for (let q = body; q < end;) {
        const counts = jpeg.subarray(q + 1, q + 17);
        const total = counts.reduce((a, b) => a + b, 0);
        const table = huffmanTable(counts, jpeg.subarray(q + 17, q + 17 + total));
        (jpeg[q]! >> 4 ? acTables : dcTables)[jpeg[q]! & 15] = table;
        q += 17 + total;
      }
    } else if (marker === 0xc0 || marker === 0xc1) {
      precision = jpeg[body]!;
      height = u16(body + 1);
      width = u16(body + 3);
      const count = jpeg[body + 5]!;
      components = [];
      for (let i = 0; i < count; i++) {
        const at = body + 6 + i * 3;
        components.push({
          id: jpeg[at]!,
          h: jpeg[at + 1]! >> 4 || 1,
          v: jpeg[at + 1]! & 15 || 1,
          tq: jpeg[at + 2]!,
          td: 0,
          ta: 0,
          blocksPerLine: 0,
          blocksPerColumn: 0,
          plane: new Float32Array(0),
          prediction: 0,
        });
      }
      maxH = Math.max(...components.map((c) => c.h));
      maxV = Math.max(...components.map((c) => c.v));
      const mcusPerLine = Math.ceil(width / (8 * maxH));
      const mcusPerColumn = Math.ceil(height / (8 * maxV));
      if (!width || !height || width * height > 1 << 28) throw new Error(`frame of ${width}×${height}`);
      for (const c of components) {
        c.blocksPerLine = mcusPerLine * c.h;
        c.blocksPerColumn = mcusPerColumn * c.v;
        c.plane = new Float32Array(c.blocksPerLine * 8 * c.blocksPerColumn * 8);
      }
    } else if (marker >= 0xc2 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      throw new Error(`JPEG process of marker FF${marker.toString(16).toUpperCase()} is not sequential Huffman`);
    } else if (marker === 0xdd) {
      restartInterval = u16(body);
    } else if (marker === 0xda) {
      p = decodeScan(jpeg, body, components, { quant, dcTables, acTables, restartInterval, maxH, maxV, width, height });
      continue;
    }
    p = end;
  }
  if (!components.length) throw new Error('no frame header');
  return outputOf(components, width, height, precision, maxH, maxV);
}

interface ScanContext {
  quant: Uint16Array[];
  dcTables: HuffmanTable[];
  acTables: HuffmanTable[];
  restartInterval: number;
  maxH: number;
  maxV: number;
  width: number;
  height: number;
}

// Decodes one scan; returns where the entropy-coded data ended (the next marker).
function decodeScan(jpeg: Uint8Array, body: number, all: Component[], context: ScanContext): number {
  const count = jpeg[body]!;
  const scan: Component[] = [];
  for (let i = 0; i < count; i++) {
    const component = all.find((c) => c.id === jpeg[body + 1 + i * 2]);
    if (!component) throw new Error('scan names an unknown component');
    component.td = jpeg[body + 2 + i * 2]! >> 4;
    component.ta = jpeg[body + 2 + i * 2]! & 15;
    component.prediction = 0;
    scan.push(component);
  }
  const headerLength = (jpeg[body - 2]! << 8) | jpeg[body - 1]!;
  const reader = new BitReader(jpeg, body - 2 + headerLength);
  const coefficients = new Float64Array(64);
  const tables = (c: Component) => {
    const dc = context.dcTables[c.td];
    const ac = context.acTables[c.ta];
    const q = context.quant[c.tq];
    if (!dc || !ac || !q) throw new Error('scan refers to a missing table');
    return [dc, ac, q] as const;
  };
  let mcu = 0;
  const restart = () => {
    if (context.restartInterval && mcu > 0 && mcu % context.restartInterval === 0) {
      reader.restart();
      for (const c of scan) c.prediction = 0;
    }
  };
  if (scan.length === 1) {
    // A non-interleaved scan walks the component's own blocks, only those that cover the image.
    const c = scan[0]!;
    const [dc, ac, q] = tables(c);
    const lines = Math.ceil(Math.ceil((context.width * c.h) / context.maxH) / 8);
    const columns = Math.ceil(Math.ceil((context.height * c.v) / context.maxV) / 8);
    for (let row = 0; row < columns; row++)
      for (let col = 0; col < lines; col++, mcu++) {
        restart();
        decodeBlock(reader, c, dc, ac, q, row, col, coefficients);
      }
  } else {
    const mcusPerLine = Math.ceil(context.width / (8 * context.maxH));
    const mcusPerColumn = Math.ceil(context.height / (8 * context.maxV));
    for (let my = 0; my < mcusPerColumn; my++)
      for (let mx = 0; mx < mcusPerLine; mx++, mcu++) {
        restart();
        for (const c of scan) {
          const [dc, ac, q] = tables(c);
          for (let by = 0; by < c.v; by++)
            for (let bx = 0; bx < c.h; bx++)
              decodeBlock(reader, c, dc, ac, q, my * c.v + by, mx * c.h + bx, coefficients);
        }
      }
  }
  // The entropy-coded data ends at the next marker that is not a restart marker.
  let p = reader.position;
  while (
    p + 1 < jpeg.length &&
    !(jpeg[p] === 0xff && jpeg[p + 1] !== 0 && (jpeg[p + 1]! < 0xd0 || jpeg[p + 1]! > 0xd7))
  )
    p++;
  return p;
}

// Level-shifts, rounds and clamps each component, upsampling by replication, into interleaved samples.
function outputOf(
  components: Component[],
  width: number,
  height: number,
  precision: number,
  maxH: number,
  maxV: number,
): DecodedFrame {
  const max = 2 ** precision - 1;
  const shift = 2 ** (precision - 1);
  const n = components.length;
  const out = new Uint16Array(width * height * n);
  components.forEach((c, k) => {
    const stride = c.blocksPerLine * 8;
    for (let y = 0; y < height; y++) {
      const sy = Math.floor((y * c.v) / maxV);
      for (let x = 0; x < width; x++) {
        const v = Math.round(c.plane[sy * stride + Math.floor((x * c.h) / maxH)]! + shift);
        out[(y * width + x) * n + k] = v < 0 ? 0 : v > max ? max : v;
      }
    }
  });
  return {
    bytes: new Uint8Array(out.buffer),
    width,
    height,
    bitsPerSample: precision,
    components: n,
    colourTransformed: false,
  };
}
